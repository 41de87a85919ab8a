// The one definition of "how long has it been running" and "what has it cost": /ps usage, /ps spend,
// the team digest and the cost alerts all read their figures here, so they cannot disagree about a
// machine. Paperspace bills compute by the hour at the machine's hourly rate, and storage by the month
// for the part of it the disk existed (the contract's utilization; v1's estimate has the same shape).
import type { MachineEvent, MachineUtilization } from '../../paperspace/schemas.js';
import { parseAmount } from '../../slack/block-kit/format.js';

/** Events that start a run, and those that end one (the names v1's estimate reads too). */
const RUN_EVENTS: ReadonlySet<string> = new Set(['start', 'restart']);
const HALT_EVENTS: ReadonlySet<string> = new Set(['stop', 'deactivate', 'vm-shutdown-force']);
/** A run event in these states never started the machine. */
const FAILED_STATES: ReadonlySet<string> = new Set(['error', 'cancelled']);

/** Hours from `since` to `now` (epoch milliseconds); never negative, for a clock that moved back. */
export function hoursRunningSince(since: number, now: number): number {
  return Math.max(0, now - since) / 3_600_000;
}

/** What `seconds` of running cost at `hourlyRate` dollars an hour, unrounded. */
export function costAtRate(hourlyRate: number, seconds: number): number {
  return (hourlyRate * Math.max(0, seconds)) / 3600;
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

/** A billing month's figures for one machine, as Paperspace would bill them (upgrades aside). */
export interface UsageCost {
  secondsUsed: number;
  hours: number;
  /** Dollars an hour; undefined when Paperspace sent a rate that is not a number. */
  hourlyRate: number | undefined;
  /** hours × hourly rate; undefined without an hourly rate. */
  compute: number | undefined;
  /** Dollars a month for the disk; undefined when unreadable. */
  monthlyStorageRate: number | undefined;
  /** Days of the month the disk existed (the month's length when it existed all month). */
  storageDays: number;
  /** Days in the billing month; 0 when the month could not be read (storage then counts whole). */
  monthDays: number;
  /** The monthly storage rate × the share of the month the disk existed. */
  storage: number | undefined;
  /** compute + storage, unrounded so a sum of machines rounds once; undefined if a rate is missing. */
  total: number | undefined;
}

export function usageCost(utilization: MachineUtilization): UsageCost {
  const { secondsUsed, billingMonth, hourlyRate } = utilization.utilization;
  const hourly = parseAmount(hourlyRate);
  const monthly = parseAmount(utilization.storageUtilization.monthlyRate);
  // Storage is charged for the part of the month the disk existed: nothing in a month before the
  // machine was created, a share of the rate in the month it was created.
  const monthDays = daysInMonth(billingMonth);
  const storageDays = Math.min(monthDays, utilization.storageUtilization.secondsUsed / 86_400);
  const storageShare = monthDays > 0 ? storageDays / monthDays : 1;
  const compute = hourly === undefined ? undefined : costAtRate(hourly, secondsUsed);
  const storage = monthly === undefined ? undefined : monthly * storageShare;
  return {
    secondsUsed,
    hours: secondsUsed / 3600,
    hourlyRate: hourly,
    compute,
    monthlyStorageRate: monthly,
    storageDays: monthDays > 0 ? storageDays : 0,
    monthDays,
    storage,
    total: compute === undefined || storage === undefined ? undefined : compute + storage,
  };
}

/** 31 for `2024-05`; 0 for a month that cannot be read. */
export function daysInMonth(billingMonth: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(billingMonth);
  if (!match) return 0;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]), 0)).getUTCDate();
}
