// Reader of /ps remind: shutdown reminders and turning them off.
import {
  fail,
  NO_OPTIONS,
  type ParseResult,
  readId,
  splitWithoutKeyValues,
  success,
  tooMany,
} from './command-arguments.js';
import { parseReminderDays, parseTimeOfDay } from './command-values.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

export function readRemind(args: Token[]): ParseResult {
  const [first, ...rest] = args;
  if (first?.text.toLowerCase() === 'off' && !first.quoted) {
    const split = splitWithoutKeyValues('remind off', rest, NO_OPTIONS);
    if (!split.ok) return split;
    const [idToken] = split.args.positionals;
    const reminderId = idToken === undefined ? null : readId('remind off', idToken, 'reminder');
    if (reminderId !== null && !reminderId.ok) return reminderId;
    const extra = tooMany('remind off', split.args.positionals, 1, 'at most one reminder <id>');
    return extra ?? success({ name: 'remind off', reminderId: reminderId?.value ?? null });
  }
  const split = splitWithoutKeyValues('remind', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [timeToken, ...dayTokens] = split.args.positionals;
  if (timeToken === undefined)
    return fail('remind', 'Missing <time>: say when to remind you, for example 19:00 or 7pm.');
  const time = parseTimeOfDay(timeToken.text);
  if (!time.ok) return fail('remind', `Invalid time ${echo(timeToken.text)}: ${time.error}.`);
  const days = parseReminderDays(
    dayTokens.map((token) => token.text),
    time.value.hour,
    time.value.minute,
  );
  if (!days.ok) return fail('remind', `Invalid days: ${days.error}.`);
  return success({
    name: 'remind',
    time: time.value.time,
    schedule: days.value.schedule,
    cron: days.value.cron,
  });
}
