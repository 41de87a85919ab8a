// When a machine's current run began, as its owner would say it: at its last start, restart or create
// (v1 records a create and then the start it asked for), when that was asked for. An alert says "since"
// the moment someone last decided it should run, so a machine restarted this morning is not reported
// as running since last week. Without such an event the best the bot knows is when it first saw it
// running, which is an estimate, and the alert says so.

import type { MachineEvent } from '../../paperspace/schemas.js';

export interface RunningSince {
  at: number;
  estimated: boolean;
}

const RUN_EVENTS: ReadonlySet<string> = new Set(['start', 'restart', 'create']);
const HALT_EVENTS: ReadonlySet<string> = new Set(['stop', 'deactivate', 'vm-shutdown-force']);
/** A run event in these states never started the machine. */
const FAILED_STATES: ReadonlySet<string> = new Set(['error', 'cancelled']);

/**
 * When the last run event was asked for; undefined when a finished stop was asked for after it. Both are
 * compared by when they were asked: a start queued behind a stop follows it.
 */
function lastRunStart(events: readonly MachineEvent[]): number | undefined {
  let lastHalt = Number.NEGATIVE_INFINITY;
  let since: number | undefined;
  for (const event of events) {
    const asked = Date.parse(event.dtCreated);
    if (Number.isNaN(asked)) continue;
    if (HALT_EVENTS.has(event.name) && event.state === 'done') lastHalt = Math.max(lastHalt, asked);
    if (RUN_EVENTS.has(event.name) && !FAILED_STATES.has(event.state))
      since = Math.max(since ?? asked, asked);
  }
  return since === undefined || since < lastHalt ? undefined : since;
}

export function runningSinceOf(events: readonly MachineEvent[], seenAt: number): RunningSince {
  const at = lastRunStart(events);
  // A run dated after the bot saw it running is an event log out of step with the list: trust the sight.
  return at === undefined || at > seenAt ? { at: seenAt, estimated: true } : { at, estimated: false };
}

/**
 * The run that began after a finished stop asked for later than `runningSince`: the machine was stopped
 * and started again between two checks, and no list showed it off. Undefined when no such stop is in
 * the log (a restart or an upgrade keeps the run: Paperspace bills it throughout).
 */
export function runAfterStop(
  events: readonly MachineEvent[],
  runningSince: number,
  seenAt: number,
): RunningSince | undefined {
  const stoppedSince = events.some(
    (event) =>
      HALT_EVENTS.has(event.name) && event.state === 'done' && Date.parse(event.dtCreated) > runningSince,
  );
  return stoppedSince ? runningSinceOf(events, seenAt) : undefined;
}
