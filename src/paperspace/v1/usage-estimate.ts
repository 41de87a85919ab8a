// v1 has no utilization endpoint. The closest honest figure is the machine's running time in the
// month, reconstructed from its finished start/stop events, times its usageRate. It is an estimate:
// events can be missing, and Paperspace bills by its own meter, so the bot labels it as one.
// Units (docs/units.md): the OpenAPI names none; Paperspace prices machines per hour and storage per
// month, so `usageRate` is dollars per hour and `storageRate` dollars per month of the disk.
import { BILLED_STATES } from '../constants.js';
import type { MachineEvent, MachineUtilization } from '../schemas.js';
import type { V1Machine } from './wire.js';

const RUNNING_STATES: ReadonlySet<string> = new Set(BILLED_STATES);

const RUNS = new Set(['start', 'restart']);
const HALTS = new Set(['stop', 'deactivate', 'vm-shutdown-force']);

function timeOf(event: MachineEvent): number {
  return Date.parse(event.dtFinished ?? event.dtCreated);
}

/** UTC bounds of a YYYY-MM billing month, as epoch milliseconds [start, end). */
export function monthBounds(billingMonth: string): [number, number] {
  const [year, month] = billingMonth.split('-').map(Number) as [number, number];
  return [Date.UTC(year, month - 1, 1), Date.UTC(year, month, 1)];
}

/**
 * Seconds the machine ran in the month. `runningNow` says whether it is running at `now`, which
 * closes an interval its events leave open; a stop with no start before it means it was running
 * when the month (or its event history) began. Nothing counts before `createdAt`: a machine is never
 * charged for time before it existed, whatever its events leave open.
 */
function estimateSecondsRunning(
  events: readonly MachineEvent[],
  billingMonth: string,
  runningNow: boolean,
  now: number,
  createdAt = Number.NaN,
): number {
  const [monthBegins, monthEnd] = monthBounds(billingMonth);
  const monthStart = Number.isNaN(createdAt) ? monthBegins : Math.max(monthBegins, createdAt);
  const transitions = events
    .filter((event) => event.state === 'done' && (RUNS.has(event.name) || HALTS.has(event.name)))
    .map((event) => ({ at: timeOf(event), runs: RUNS.has(event.name) }))
    .filter((transition) => !Number.isNaN(transition.at))
    .sort((a, b) => a.at - b.at);

  let total = 0;
  const add = (from: number, to: number) => {
    const start = Math.max(from, monthStart);
    const end = Math.min(to, monthEnd, now);
    if (end > start) total += end - start;
  };
  let runningSince: number | undefined = transitions[0]?.runs === false ? monthStart : undefined;
  for (const transition of transitions) {
    if (transition.runs) runningSince ??= transition.at;
    else if (runningSince !== undefined) {
      add(runningSince, transition.at);
      runningSince = undefined;
    }
  }
  if (runningSince === undefined && transitions.length === 0 && runningNow) runningSince = monthStart;
  if (runningSince !== undefined && runningNow) add(runningSince, now);
  return Math.round(total / 1000);
}

/** Seconds of the month the machine's disk existed (storage is billed for them), up to `now`. */
function secondsExisting(billingMonth: string, createdAt: number, now: number): number {
  const [monthStart, monthEnd] = monthBounds(billingMonth);
  const from = Number.isNaN(createdAt) ? monthStart : Math.max(monthStart, createdAt);
  return Math.max(0, Math.round((Math.min(monthEnd, now) - from) / 1000));
}

/** A machine's usage in the month as the contract's utilization reports it, estimated from its events. */
export function estimateUtilization(
  { machineId, billingMonth }: { machineId: string; billingMonth: string },
  machine: V1Machine,
  events: readonly MachineEvent[],
  now: number,
): MachineUtilization {
  const running = RUNNING_STATES.has(machine.state);
  const createdAt = Date.parse(machine.dtCreated);
  const secondsUsed = estimateSecondsRunning(events, billingMonth, running, now, createdAt);
  const usage = { machineId, billingMonth };
  // Storage is billed for the time the disk existed, running or not, as the contract's meter counts it.
  const storageSeconds = secondsExisting(billingMonth, createdAt, now);
  return {
    machineId,
    utilization: { ...usage, secondsUsed, hourlyRate: String(machine.usageRate ?? '') },
    storageUtilization: {
      ...usage,
      secondsUsed: storageSeconds,
      monthlyRate: String(machine.storageRate ?? ''),
    },
  };
}
