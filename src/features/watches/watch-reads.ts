// The active watches of many people's polls, read in one query. A poll reads its person's watches when
// their machine list is in (watch-poller.ts), and at 5,000 people a replica a query each queued every
// poll behind the database pool: a poll whose Paperspace call took 250 ms took 1.5 to 5 s in all, so
// the polls of a tick no longer fit in the interval. Lists that come back together (one turn of the
// event loop) are answered by one query instead.
import type { Store } from '../../store/store.js';
import type { Watch } from '../../store/watch-types.js';

export interface WatchReads {
  /** Those of `ids` still active, by id; read together with the other polls asking in this turn. */
  read(ids: readonly string[]): Promise<Map<string, Watch>>;
}

interface Batch {
  ids: string[];
  answer: Promise<Map<string, Watch>>;
}

export function createWatchReads(store: Pick<Store, 'watches'>): WatchReads {
  let open: Batch | undefined;

  function startBatch(): Batch {
    const batch: Batch = { ids: [], answer: Promise.resolve(new Map()) };
    // setImmediate runs after the I/O callbacks of this turn: every list answered in it has asked by then.
    batch.answer = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      if (open === batch) open = undefined;
      const watches = await store.watches.listActiveByIds(batch.ids);
      return new Map(watches.map((watch) => [watch.id, watch]));
    });
    return batch;
  }

  return {
    read(ids) {
      if (ids.length === 0) return Promise.resolve(new Map());
      open ??= startBatch();
      open.ids.push(...ids);
      return open.answer;
    },
  };
}
