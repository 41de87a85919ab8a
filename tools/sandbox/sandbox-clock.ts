// The sandbox's movable clock: real time plus an offset that only grows. The bot, its store and the
// Paperspace emulator all read it, so moving it forward makes a machine seem to have run for hours, a
// share or a request run out, and a reminder or digest fall due, without waiting. Slack's half keeps
// real time: the bot checks each request's signature timestamp against the real clock, as Bolt does.
export interface SandboxClock {
  now(): number;
  /** How far ahead of real time the sandbox runs. */
  offsetMs(): number;
  /** Moves the time forward by `ms` (never back: stored times would then lie in the future). */
  advance(ms: number): void;
}

export function createSandboxClock(realNow: () => number = Date.now): SandboxClock {
  let offset = 0;
  return {
    now: () => realNow() + offset,
    offsetMs: () => offset,
    advance(ms) {
      if (!Number.isSafeInteger(ms) || ms <= 0)
        throw new RangeError(`the clock only moves forward, not ${ms} ms`);
      offset += ms;
    },
  };
}

const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** A week is as far as one step goes: enough for a weekly digest, not enough to lose one's place. */
const MAX_CLOCK_STEP_MS = 7 * UNIT_MS.d;
export const CLOCK_STEP_USAGE =
  'Move the sandbox clock with `/clock +30m`, `/clock +8h` or `/clock +1d` (at most a week).';

/** `+30m`, `+8h`, `+1d` (the plus is optional) as milliseconds; undefined when it is none of those. */
export function parseClockStep(text: string): number | undefined {
  const match = /^\+?(\d{1,4})\s*(m|min|h|d|day|days)$/i.exec(text.trim());
  if (match === null) return undefined;
  const unit = (match[2] ?? '').toLowerCase()[0] as keyof typeof UNIT_MS;
  const ms = Number(match[1]) * UNIT_MS[unit];
  return ms > 0 && ms <= MAX_CLOCK_STEP_MS ? ms : undefined;
}

/** Where the sandbox's time stands, as the page shows it. */
export interface ClockReading {
  now: number;
  offsetMs: number;
}

/** The page's handle on the clock: startSandbox makes it, since moving time means running the bot's due jobs. */
export interface ClockControl {
  reading(): ClockReading;
  /** Moves the time forward and resolves once what fell due (cron occurrences, a scheduler tick) has run. */
  advance(ms: number): Promise<void>;
}
