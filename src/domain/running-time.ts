// How long a machine has been running, read from its events: the cost alerts say since when, and the
// digest how long. Events that start a run and end one are the names v1's usage estimate reads too.
import type { MachineEvent } from '../paperspace/schemas.js';

const RUN_EVENTS: ReadonlySet<string> = new Set(['start', 'restart']);
const HALT_EVENTS: ReadonlySet<string> = new Set(['stop', 'deactivate', 'vm-shutdown-force']);
/** A run event in these states never started the machine. */
const FAILED_STATES: ReadonlySet<string> = new Set(['error', 'cancelled']);

/** Hours from `since` to `now` (epoch milliseconds); never negative, for a clock that moved back. */
export function hoursRunningSince(since: number, now: number): number {
  return Math.max(0, now - since) / 3_600_000;
}

/**
 * When the machine's current run began (epoch milliseconds): the first start or restart after its last
 * finished stop, or undefined when its events do not say (an old run whose events were pruned). A
 * restart within a run does not reset it: the machine was billed throughout. Only meaningful while the
 * machine is running; the caller knows its state.
 */
export function runningSince(events: readonly MachineEvent[]): number | undefined {
  const timed = events
    .map((event) => ({ event, at: Date.parse(event.dtFinished ?? event.dtCreated) }))
    .filter(({ at }) => !Number.isNaN(at));
  let lastHalt = Number.NEGATIVE_INFINITY;
  for (const { event, at } of timed) {
    if (event.state === 'done' && HALT_EVENTS.has(event.name)) lastHalt = Math.max(lastHalt, at);
  }
  let since: number | undefined;
  for (const { event, at } of timed) {
    if (!RUN_EVENTS.has(event.name) || FAILED_STATES.has(event.state) || at < lastHalt) continue;
    if (since === undefined || at < since) since = at;
  }
  return since;
}
