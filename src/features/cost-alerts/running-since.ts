// When a machine's current run began. Its event log says so: the newest finished start, restart or
// create (the definition /ps spend uses too, so an alert and a spend report agree about a machine).
// Without such an event the best the bot knows is when it first saw it running, which is an estimate,
// and the alert says so.
import type { MachineEvent } from '../../paperspace/schemas.js';

export interface RunningSince {
  at: number;
  estimated: boolean;
}

const RUN_EVENTS: ReadonlySet<string> = new Set(['start', 'restart', 'create']);

export function runningSinceOf(events: readonly MachineEvent[], seenAt: number): RunningSince {
  let latest: number | undefined;
  for (const event of events) {
    if (event.state !== 'done' || !RUN_EVENTS.has(event.name)) continue;
    const at = Date.parse(event.dtFinished ?? event.dtCreated);
    if (!Number.isNaN(at) && at <= seenAt && (latest === undefined || at > latest)) latest = at;
  }
  return latest === undefined ? { at: seenAt, estimated: true } : { at: latest, estimated: false };
}
