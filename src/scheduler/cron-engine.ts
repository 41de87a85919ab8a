// When reminders fire. node-cron runs them in production; the CronEngine seam lets tests fire them from
// a fake clock instead. nextFireTime answers "when next?" from any clock (node-cron only knows the real
// one), for `/ps reminders` and for that fake engine.
import { Cron } from 'croner';
import cron, { type ParsedFields } from 'node-cron';
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
const SEARCH_MS = (4 * 366 + 1) * 24 * 60 * 60 * 1000;

/**
 * The first time after `after` (epoch ms) at which `expression` fires in `timezone`, or undefined when
 * it does not fire within four years. croner walks the calendar and the time zone (node-cron can only
 * say what comes next from the real clock), and node-cron's own matcher has the last word on each
 * candidate, so the answer agrees with when node-cron really fires:
 * - croner reads the fields as node-cron parsed them, so names, wrap-around ranges (`fri-mon`) and
 *   day-of-month AND day-of-week mean what node-cron means; a day token croner reads otherwise
 *   (`L-3`) becomes `*` there and node-cron's matcher picks the days.
 * - On the day clocks go forward croner moves a time in the gap to the gap's end; node-cron skips it,
 *   and so does this, because node-cron does not match the moved time.
 * - In the hour that repeats when clocks go back, croner names the first pass; node-cron fires at the
 *   first or the second depending on the zone. Both are the same local time, which is what a person
 *   is shown.
 */
export function nextFireTime(expression: string, timezone: string, after: number): number | undefined {
  const matcher = cron.createTask(expression, () => undefined, { timezone });
  try {
    const candidates = new Cron(cronerPattern(cron.parse(expression)), { timezone, domAndDow: true });
    for (const candidate of candidates.enumerate(new Date(after))) {
      if (candidate.getTime() > after + SEARCH_MS) return undefined;
      if (matcher.match(candidate)) return candidate.getTime();
    }
    return undefined;
  } finally {
    void matcher.destroy();
  }
}

/** node-cron's parsed fields as a six-field croner pattern that fires at least whenever node-cron does. */
function cronerPattern(fields: ParsedFields): string {
  const list = (values: (number | string)[]) =>
    values.every((value) => typeof value === 'number') ? values.join(',') : '*';
  return [fields.second, fields.minute, fields.hour, fields.dayOfMonth, fields.month, fields.dayOfWeek]
    .map(list)
    .join(' ');
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
