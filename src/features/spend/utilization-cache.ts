// Utilization of a machine in a month, remembered so that /ps spend and the digest do not ask
// Paperspace once per machine every time. A past month is closed: its figures no longer change, so it
// is kept until evicted. The running month is re-read at most every CURRENT_MONTH_TTL_MS.
//
// The cache is in memory, one per replica (keyed by the bot's client factory, so two bots in one
// process, as in tests, never share one). Sharing it across replicas through the database would cost a
// write per machine for figures any replica can read again in one call; a replica that starts cold
// asks Paperspace once per machine and then serves from memory like the others.
//
// Entries are keyed by machine and month, whoever asked: a machine's utilization is the same for every
// person who may see it, and the cache is read only for machines the asker's own key has just listed.
import type { MachineUtilization } from '../../paperspace/schemas.js';

const CURRENT_MONTH_TTL_MS = 5 * 60_000;
/** Enough for a large team's machines over a year of months, and small next to a replica's memory. */
const MAX_ENTRIES = 20_000;

export interface UtilizationCache {
  /** The remembered figures, or `read()`'s (then remembered). */
  get(
    machineId: string,
    month: string,
    current: boolean,
    read: () => Promise<MachineUtilization>,
  ): Promise<MachineUtilization>;
}

interface Entry {
  at: number;
  current: boolean;
  value: Promise<MachineUtilization>;
}

const caches = new WeakMap<object, UtilizationCache>();

/** The cache of the bot whose client factory is `owner` (PlatformDeps and JobDeps carry the same). */
export function utilizationCacheOf(owner: object, now: () => number): UtilizationCache {
  let cache = caches.get(owner);
  if (cache === undefined) {
    cache = createUtilizationCache(now);
    caches.set(owner, cache);
  }
  return cache;
}

function createUtilizationCache(now: () => number): UtilizationCache {
  const entries = new Map<string, Entry>();
  return {
    get(machineId, month, current, read) {
      const key = `${machineId}\u0000${month}`;
      const found = entries.get(key);
      const fresh = found && (!found.current || now() - found.at < CURRENT_MONTH_TTL_MS);
      if (found && fresh) return found.value;
      // The promise is kept, so two commands at once share one request; a failure is forgotten so the
      // next command asks again instead of repeating the error for minutes.
      const value = read();
      entries.delete(key);
      entries.set(key, { at: now(), current, value });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      if (entries.size > MAX_ENTRIES) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      return value;
    },
  };
}
