// The days a reminder fires, as people type them after its time: nothing (weekdays), `weekdays`,
// `daily`, or cron day fields. node-cron checks the expression they make, so a reminder that was
// accepted is one node-cron will run.
import { validateDetailed } from 'node-cron';
import { closestMatch } from '../../slack/command-language/closest-match.js';
import { invalid, ok, type ValueResult } from '../../slack/command-language/command-values.js';
import { echo } from '../../slack/command-language/echo.js';

/** Words a person may give for the days: the named schedules and the days of the week. */
const DAY_WORDS = ['weekdays', 'daily', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const FULL_DAY_NAMES: readonly string[] = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
];

/**
 * Days typed as one word that are none of these, said in words with the likeliest one meant, never
 * in cron's own field syntax (`mon-fri` and `mon,wed,fri` are what most people mean by it).
 */
function unknownDays(typed: string): string {
  const parts = typed.toLowerCase().split(/[,-]/);
  const known = (part: string) =>
    (DAY_WORDS as readonly string[]).includes(part) || FULL_DAY_NAMES.includes(part) || /^[0-7*]$/.test(part);
  const wrong = parts.find((part) => !known(part));
  const guess = closestMatch(wrong ?? typed.toLowerCase(), DAY_WORDS);
  const meant = guess === null ? '' : ` (did you mean ${guess}?)`;
  return (
    `${echo(typed)} is not days I know${meant}: say weekdays, daily, or days like mon-fri or mon,wed,fri ` +
    '(a range with a dash, a list with commas)'
  );
}

/** How a reminder repeats; `cron` means the person gave the day fields of a cron expression. */
type ReminderSchedule = 'weekdays' | 'daily' | 'cron';

/**
 * A reminder as `/ps remind` reads it: `time` is `HH:MM` (24-hour, however it was typed) in the
 * person's time zone; `cron` is the full five-field expression built from the time and the days
 * (`0 19 * * 1-5`), already checked by node-cron.
 */
export interface RemindParams {
  time: string;
  schedule: ReminderSchedule;
  cron: string;
}

const NAMED_DAYS = { weekdays: '* * 1-5', daily: '* * *' } as const;
const CRON_FIELD_NAMES: Record<string, string> = {
  dayOfMonth: 'day of month',
  month: 'month',
  dayOfWeek: 'day of week',
};

interface ReminderDays {
  schedule: ReminderSchedule;
  /** The full five-field cron expression: minute hour day-of-month month day-of-week. */
  cron: string;
}

/**
 * The days a reminder fires, joined with its time into one cron expression that node-cron accepts.
 * `words` are what follows the time: nothing (weekdays), `weekdays`, `daily`, the three cron day
 * fields (`* * 1-5`, also as one quoted token) or only the day-of-week field (`mon,wed,fri`). A full
 * cron expression is refused, because the time already comes from HH:MM.
 */
export function parseReminderDays(
  words: readonly string[],
  hour: number,
  minute: number,
): ValueResult<ReminderDays> {
  const fields = words.flatMap((word) => word.split(/\s+/)).filter((field) => field !== '');
  const atTime = (days: string) => `${minute} ${hour} ${days}`;
  if (fields.length === 0) return ok({ schedule: 'weekdays', cron: atTime(NAMED_DAYS.weekdays) });
  const named = fields.length === 1 ? fields[0]?.toLowerCase() : undefined;
  if (named === 'weekdays' || named === 'daily')
    return ok({ schedule: named, cron: atTime(NAMED_DAYS[named]) });
  if (fields.length !== 1 && fields.length !== 3) {
    return invalid(
      `give weekdays, daily, or the cron day fields "day-of-month month day-of-week" (for example * * 1-5); the time comes from HH:MM, so leave minute and hour out (got ${fields.length} fields)`,
    );
  }
  const days = fields.length === 1 ? `* * ${fields[0]}` : fields.join(' ');
  const cron = atTime(days);
  const validation = validateDetailed(cron);
  if (!validation.valid && fields.length === 1) return invalid(unknownDays(fields[0] ?? ''));
  if (!validation.valid) {
    const problem = validation.errors[0];
    const where =
      problem === undefined
        ? ''
        : ` (${CRON_FIELD_NAMES[problem.field] ?? problem.field}: ${problem.value ?? ''})`;
    return invalid(
      `${echo(days)} is not valid cron day fields${where}; use day-of-month month day-of-week, for example * * 1-5 or * * mon,wed,fri`,
    );
  }
  return ok({ schedule: 'cron', cron });
}
