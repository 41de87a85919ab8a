// A person's machines as one watch poll lists them: the pages that hold the watched machines, or
// every page when a machine check is due.
import type { PaperspaceClient } from '../../paperspace/client.js';
import { MACHINE_LIST_PAGE_SIZE } from '../../paperspace/constants.js';
import type { Machine } from '../../paperspace/schemas.js';

export interface ListedMachines {
  /** The watched machines that were listed, by id. */
  watched: Map<string, Machine>;
  /** Every machine listed: all of the person's when `complete`. */
  all: Machine[];
  /** The list reached its last page. */
  complete: boolean;
}

/**
 * The watched machines among the user's, one page at a time: the first page is usually all there is,
 * and later pages are read only while a watched machine is still missing, or when `whole` asks for
 * every machine (a machine check is due).
 */
export async function listMachines(
  client: PaperspaceClient,
  wanted: ReadonlySet<string>,
  whole: boolean,
  signal?: AbortSignal,
): Promise<ListedMachines> {
  const found = new Map<string, Machine>();
  const all: Machine[] = [];
  const seen = new Set<string>();
  for (let skip = 0; ; skip += MACHINE_LIST_PAGE_SIZE) {
    // Polls retry at the next tick, so the client's own quick retries (and Retry-After waits) are off.
    const page = await client.machines.list(
      { limit: MACHINE_LIST_PAGE_SIZE, skip },
      { maxRetries: 0, ...(signal === undefined ? {} : { signal }) },
    );
    let fresh = 0;
    for (const machine of page) {
      if (seen.has(machine.id)) continue;
      seen.add(machine.id);
      fresh += 1;
      all.push(machine);
      if (wanted.has(machine.id)) found.set(machine.id, machine);
    }
    // A short page is the last one; a page of machines already seen means the API ignores skip.
    const last = page.length < MACHINE_LIST_PAGE_SIZE || fresh === 0;
    if (last || (!whole && found.size === wanted.size)) return { watched: found, all, complete: last };
  }
}
