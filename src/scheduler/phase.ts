// A fixed point within a period for each id: work that recurs per id (a watch's event read, a person's
// poll) is spread evenly across the period instead of bunching at its start, and lands at the same
// point on every replica and after every restart, so an id handed to another replica keeps its place
// in the period.

/** A point in [0, period) fixed by `id` (FNV-1a), the same on every replica and every restart. */
export function phaseOf(id: string, period: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index += 1) {
    hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0) % Math.max(1, Math.floor(period));
}
