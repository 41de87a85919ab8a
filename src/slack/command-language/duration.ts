// Durations typed by people in commands (`--timeout 90s`, `10m`, `2h`, `1h30m`): hours, minutes and
// seconds in that order, each at most once, whole numbers only, so there is one way to read each text.

export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

const UNIT_MS = { h: 3_600_000, m: 60_000, s: 1000 } as const;
const DURATION_PATTERN = /^(?:(\d{1,6})h)?(?:(\d{1,6})m)?(?:(\d{1,6})s)?$/;

/** Reads a duration such as `90s`, `10m`, `2h` or `1h30m` into milliseconds (more than 0, at most `maxMs`). */
export function parseDuration(text: string, maxMs: number = MAX_DURATION_MS): DurationResult {
  const normalized = text.trim().toLowerCase();
  if (/^\d+$/.test(normalized)) {
    return { ok: false, error: `add a unit to ${normalized}: s, m or h (for example ${normalized}m)` };
  }
  const match = DURATION_PATTERN.exec(normalized);
  if (normalized === '' || match === null) {
    return {
      ok: false,
      error: 'use whole numbers with h, m and s, in that order (for example 90s, 10m, 2h, 1h30m)',
    };
  }
  const [, hours, minutes, seconds] = match;
  const ms =
    Number(hours ?? 0) * UNIT_MS.h + Number(minutes ?? 0) * UNIT_MS.m + Number(seconds ?? 0) * UNIT_MS.s;
  if (ms <= 0) return { ok: false, error: 'the duration must be longer than 0' };
  if (ms > maxMs) return { ok: false, error: `the duration can be at most ${maxMs / UNIT_MS.h}h` };
  return { ok: true, ms };
}
