// When a machine's current run began: spend's definition (the first start or restart after its
// last finished stop), so an alert and a spend report agree about a machine. Without such an event the
// best the bot knows is when it first saw it running, which is an estimate, and the alert says so.

import { runningSince } from '../../domain/running-time.js';
import type { MachineEvent } from '../../paperspace/schemas.js';

export interface RunningSince {
  at: number;
  estimated: boolean;
}

export function runningSinceOf(events: readonly MachineEvent[], seenAt: number): RunningSince {
  const at = runningSince(events);
  // A run dated after the bot saw it running is an event log out of step with the list: trust the sight.
  return at === undefined || at > seenAt ? { at: seenAt, estimated: true } : { at, estimated: false };
}
