// When reminders fire. node-cron runs them in production; the CronEngine seam lets tests fire them from
// a fake clock instead. nextFireTime answers "when next?" from any clock (node-cron only knows the real
// one), for `/ps reminders` and for that fake engine.
import cron from 'node-cron';
import type { Logger } from 'pino';

export interface CronJobSpec {
  /** Unique per job; node-cron logs it. */
  name: string;
  /** A node-cron expression (five fields, or six with seconds). */
  expression: string;
  /** IANA time zone the expression is read in. */
  timezone: string;
}

export interface CronJob {
  /** Stops the job for good. */
  stop(): void;
}

export interface CronEngine {
  /** Calls `fire` each time the expression matches, with the scheduled time (epoch ms) of that occurrence. */
  schedule(spec: CronJobSpec, fire: (scheduledAt: number) => Promise<void>): CronJob;
}

export function createNodeCronEngine(logger: Logger): CronEngine {
  const cronLogger = {
    info: (message: string) => logger.info({ component: 'node-cron' }, message),
    warn: (message: string) => logger.warn({ component: 'node-cron' }, message),
    error: (message: string | Error, err?: Error) =>
      logger.error({ component: 'node-cron', err: err ?? message }, String(message)),
    debug: (message: string | Error) => logger.debug({ component: 'node-cron' }, String(message)),
  };
  return {
    schedule(spec, fire) {
      const task = cron.schedule(
        spec.expression,
        // context.date is the occurrence node-cron matched, not the moment the timer ran: every replica
        // computes the same value, which is what makes it usable as the occurrence's claim key.
        (context) => fire(context.date.getTime()),
        { name: spec.name, timezone: spec.timezone, noOverlap: true, logger: cronLogger },
      );
      return {
        stop: () => {
          void task.destroy();
        },
      };
    },
  };
}

/** Day-of-month rules such as `29 2 *` can skip years; a reminder further out than this is not "next". */
const SEARCH_DAYS = 4 * 366 + 1;

/**
 * The first time after `after` (epoch ms) at which `expression` fires in `timezone`, or undefined when
 * it does not fire within four years. node-cron's own matcher decides each candidate, so this agrees
 * with when node-cron really fires, daylight-saving days included.
 */
export function nextFireTime(expression: string, timezone: string, after: number): number | undefined {
  const fields = cron.parse(expression);
  const seconds = [...fields.second].sort((a, b) => a - b);
  const times = fields.hour
    .flatMap((hour) => fields.minute.map((minute) => ({ hour, minute })))
    .sort((a, b) => a.hour - b.hour || a.minute - b.minute);
  const matcher = cron.createTask(expression, () => undefined, { timezone });
  try {
    const start = localDate(after, timezone);
    for (let offset = 0; offset <= SEARCH_DAYS; offset += 1) {
      // Calendar arithmetic in UTC, so a day is never skipped or repeated around a DST change.
      const day = new Date(Date.UTC(start.year, start.month - 1, start.day + offset));
      for (const { hour, minute } of times) {
        for (const second of seconds) {
          const at = zonedTimeToEpoch(
            {
              year: day.getUTCFullYear(),
              month: day.getUTCMonth() + 1,
              day: day.getUTCDate(),
              hour,
              minute,
              second,
            },
            timezone,
          );
          if (at > after && matcher.match(new Date(at))) return at;
        }
      }
    }
    return undefined;
  } finally {
    void matcher.destroy();
  }
}

/** True when the runtime knows the IANA time zone (Slack sends names like Europe/Amsterdam). */
export function isKnownTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallTime(at: number, timezone: string): WallTime {
  let formatter = formatters.get(timezone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timezone, formatter);
  }
  const parts = Object.fromEntries(
    formatter.formatToParts(new Date(at)).map((part) => [part.type, Number(part.value)]),
  );
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

function localDate(at: number, timezone: string): Pick<WallTime, 'year' | 'month' | 'day'> {
  const { year, month, day } = wallTime(at, timezone);
  return { year, month, day };
}

/** How far the zone's clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: number, timezone: string): number {
  const wall = wallTime(at, timezone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a wall-clock time happens in a zone. A time that does not exist (skipped by a DST change)
 * comes out shifted; the caller's matcher then rejects it, as node-cron would.
 */
function zonedTimeToEpoch(wall: WallTime, timezone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const first = asUtc - offsetAt(asUtc, timezone);
  return asUtc - offsetAt(first, timezone);
}
