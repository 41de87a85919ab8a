// When a machine began running. Its event log says when its last start (or its create, which starts
// it) was asked for; without such an event the best the bot knows is when it first saw it running,
// which is an estimate, and the alert says so.
import type { MachineEvent } from '../../paperspace/schemas.js';

export interface RunningSince {
  at: number;
  estimated: boolean;
}

const STARTING_EVENTS = new Set(['start', 'create']);

export function runningSinceOf(events: readonly MachineEvent[], seenAt: number): RunningSince {
  let latest: number | undefined;
  for (const event of events) {
    if (!STARTING_EVENTS.has(event.name) || event.state === 'error') continue;
    const at = Date.parse(event.dtCreated);
    if (!Number.isNaN(at) && at <= seenAt && (latest === undefined || at > latest)) latest = at;
  }
  return latest === undefined ? { at: seenAt, estimated: true } : { at: latest, estimated: false };
}
