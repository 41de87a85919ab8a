// The order of a v1 machine's events, which v1 lists oldest or newest first by creation time only.
import type { MachineEvent } from '../schemas.js';

const timeOf = (value: string | null | undefined, fallback: number) => {
  const time = value ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? fallback : time;
};

/**
 * Newest first, as the contract lists a machine's events. One request can record several events in
 * the same instant (create, then the start that follows it): the one that finished later, or has not
 * finished yet, is the newer (and a create is older than anything else of its instant), so the order
 * does not depend on how v1 breaks the tie.
 */
export function newestFirst(events: MachineEvent[]): MachineEvent[] {
  return [...events].sort(
    (a, b) =>
      timeOf(b.dtCreated, 0) - timeOf(a.dtCreated, 0) ||
      timeOf(b.dtFinished, Number.POSITIVE_INFINITY) - timeOf(a.dtFinished, Number.POSITIVE_INFINITY) ||
      // A machine's create comes before anything else that happened to it in the same instant.
      Number(a.name === 'create') - Number(b.name === 'create'),
  );
}
