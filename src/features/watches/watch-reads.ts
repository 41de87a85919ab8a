// The active watches of many people's polls, read together. A poll reads its person's watches once
// their machine list is in (watch-poller.ts). At 10,000 people on two replicas, one query a person
// queued every poll behind the store's connection pool: measured per poll, the read took 0.9-1.0 s
// against 0.5 s for the Paperspace list before it, and the polls holding their places that long left
// half the people unpolled each interval. Reads asked within GATHER_MS of each other go in one query
// (DataLoader batches them), so the store answers a few dozen queries a second instead of a thousand.
import DataLoader from 'dataloader';
import type { Store } from '../../store/store.js';
import type { Watch } from '../../store/watch-types.js';
import { ACTIVE_IDS_PER_QUERY } from '../../store/watches.js';

/**
 * How long reads are gathered before their query goes: a poll waits at most this much longer, against
 * a poll interval of seconds, and at 1,000 polls a second a query answers about ten people.
 */
const GATHER_MS = 10;

export interface WatchReads {
  /** Those of `ids` still active, in the order of `ids`; read together with other polls asking meanwhile. */
  active(ids: readonly string[]): Promise<Watch[]>;
}

export function createWatchReads(store: Pick<Store, 'watches'>): WatchReads {
  const loader = new DataLoader<string, Watch | null>(
    async (ids) => {
      const found = new Map((await store.watches.listActiveByIds(ids)).map((watch) => [watch.id, watch]));
      return ids.map((id) => found.get(id) ?? null);
    },
    {
      // A watch's state moves with every poll: each read goes to the store, none is kept.
      cache: false,
      maxBatchSize: ACTIVE_IDS_PER_QUERY,
      batchScheduleFn: (send) => setTimeout(send, GATHER_MS),
    },
  );
  return {
    async active(ids) {
      if (ids.length === 0) return [];
      const watches = await loader.loadMany(ids);
      const failed = watches.find((watch) => watch instanceof Error);
      if (failed instanceof Error) throw failed;
      return watches.filter((watch): watch is Watch => watch !== null && !(watch instanceof Error));
    },
  };
}
