// The active watches of many people's polls, read together. A poll reads its person's watches once
// their machine list is in (watch-poller.ts). With many people, one query a person queues every poll
// behind the store's connection pool, where it can take longer than the Paperspace list before it, and
// polls that hold their places that long leave people unpolled in the interval. Reads asked while the
// last read runs go in the next one (gathered-statements.ts), so the store answers a few queries per
// moment instead of one per person.
import { gatherStatements } from '../../store/gathered-statements.js';
import type { Store } from '../../store/store.js';
import type { Watch } from '../../store/watch-types.js';
import { ACTIVE_IDS_PER_QUERY } from '../../store/watches.js';

export interface WatchReads {
  /** Those of `ids` still active, in the order of `ids`; read together with other polls asking meanwhile. */
  active(ids: readonly string[]): Promise<Watch[]>;
}

export function createWatchReads(store: Pick<Store, 'watches'>): WatchReads {
  // A watch's state moves with every poll: each read goes to the store, none is kept.
  const read = gatherStatements<string, Watch | undefined>(async (ids) => {
    const found = new Map((await store.watches.listActiveByIds(ids)).map((watch) => [watch.id, watch]));
    return ids.map((id) => found.get(id));
  }, ACTIVE_IDS_PER_QUERY);
  return {
    async active(ids) {
      const watches = await Promise.all(ids.map(read));
      return watches.filter((watch) => watch !== undefined);
    },
  };
}
