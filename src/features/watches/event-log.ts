// What a machine's event log says about a watch: whether the operation it waits for failed, and when
// it finished. Only events from about when the watch began count; older ones belong to earlier
// operations.
import type { MachineEvent } from '../../paperspace/schemas.js';

/** Paperspace's clock and ours differ a little; an event this much older than the watch still belongs to it. */
const CLOCK_SKEW_MS = 60_000;

function timeOf(value: string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** Events that concern the watch, newest first: created (about) when it began or later. */
export function eventsSince(events: readonly MachineEvent[], since: number): MachineEvent[] {
  return events
    .filter((event) => (timeOf(event.dtCreated) ?? Number.NEGATIVE_INFINITY) >= since - CLOCK_SKEW_MS)
    .sort((a, b) => (timeOf(b.dtCreated) ?? 0) - (timeOf(a.dtCreated) ?? 0));
}

export function failedEventSince(events: readonly MachineEvent[], since: number): MachineEvent | undefined {
  return eventsSince(events, since).find(
    (event) => event.state === 'error' || (event.errorMsg ?? '').trim() !== '',
  );
}

/** When the operation finished by Paperspace's event log, or `now` when the log does not say. */
export function finishedAt(events: readonly MachineEvent[], since: number, now: number): number {
  for (const event of eventsSince(events, since)) {
    const finished = timeOf(event.dtFinished);
    if (event.state === 'done' && finished !== undefined && finished <= now) return Math.max(finished, since);
  }
  return now;
}
