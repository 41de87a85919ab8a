// Readers for the typed values inside commands that several commands share: times, months, regions
// and machine types. Each answers a value or an error sentence that says what a good value looks like;
// the parser adds which argument it was.
import {
  type DedicatedGpuMachineType,
  isDedicatedGpuMachineType,
  MACHINE_TYPES,
  REGIONS,
  type Region,
  regionCode,
} from '../../paperspace/constants.js';

export type ValueResult<T> = { ok: true; value: T } | { ok: false; error: string };

export const ok = <T>(value: T): ValueResult<T> => ({ ok: true, value });
export const invalid = <T>(error: string): ValueResult<T> => ({ ok: false, error });

/**
 * A time of day as people type it: `HH:MM` in 24-hour time (one-digit hours are padded: `9:30` ->
 * `09:30`), or on the 12-hour clock with am/pm (`7pm`, `7:30pm`, `12am` is midnight, `12pm` noon).
 */
export function parseTimeOfDay(text: string): ValueResult<{ time: string; hour: number; minute: number }> {
  const clock = twelveHourClock(text) ?? twentyFourHourClock(text);
  if (clock === undefined) {
    return invalid('use HH:MM from 00:00 to 23:59, or the 12-hour clock (for example 19:00, 7pm or 7:30pm)');
  }
  const { hour, minute } = clock;
  return ok({ time: `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`, hour, minute });
}

function twentyFourHourClock(text: string): { hour: number; minute: number } | undefined {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  return match === null || hour > 23 || minute > 59 ? undefined : { hour, minute };
}

function twelveHourClock(text: string): { hour: number; minute: number } | undefined {
  const match = /^(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?$/i.exec(text);
  if (match === null) return undefined;
  const hour = Number(match[1]);
  const minute = Number(match[2] ?? '0');
  if (hour < 1 || hour > 12 || minute > 59) return undefined;
  const afternoon = match[3]?.toLowerCase() === 'p';
  return { hour: (hour % 12) + (afternoon ? 12 : 0), minute };
}

/** A billing month `YYYY-MM`, month 01 to 12, as a pattern for the parameters' schemas. */
export const BILLING_MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A billing month `YYYY-MM`, month 01 to 12. */
export function parseBillingMonth(text: string): ValueResult<string> {
  const match = /^(\d{4})-(\d{2})$/.exec(text);
  const month = Number(match?.[2]);
  if (match === null || month < 1 || month > 12) {
    return invalid('use YYYY-MM with a month from 01 to 12 (for example 2025-03)');
  }
  return ok(text);
}

/** Short code of each region, read from the contract strings: `West Coast (CA1)` -> `CA1`. */
const REGION_CODES: ReadonlyMap<string, Region> = new Map(
  REGIONS.map((region) => [regionCode(region).toLowerCase(), region]),
);

/** The region codes people type, for messages. */
export const REGION_CODE_LIST: readonly string[] = [...REGION_CODES.keys()].map((code) => code.toUpperCase());

/**
 * The contract's region string for a short code (`ca1`, `NY2`, `AMS1`) or the full string in any case
 * (`west coast (ca1)`); null when it names no region.
 */
export function resolveRegion(text: string): Region | null {
  const typed = text.trim().toLowerCase();
  return REGION_CODES.get(typed) ?? REGIONS.find((region) => region.toLowerCase() === typed) ?? null;
}

export type MachineTypeRead =
  | { kind: 'dedicated'; machineType: DedicatedGpuMachineType }
  | { kind: 'other'; machineType: string }
  | { kind: 'unknown' };

/** A machine type in any case (`p4000`, `gpu+`), telling dedicated GPU types from the others. */
export function readMachineType(text: string): MachineTypeRead {
  const typed = text.trim().toLowerCase();
  const machineType = MACHINE_TYPES.find((type) => type.toLowerCase() === typed);
  if (machineType === undefined) return { kind: 'unknown' };
  return isDedicatedGpuMachineType(machineType)
    ? { kind: 'dedicated', machineType }
    : { kind: 'other', machineType };
}
