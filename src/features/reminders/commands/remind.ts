// `/ps remind <time> [weekdays|daily|<cron days>]`: a shutdown reminder at that time in the person's
// own Slack time zone. It is stored; the scheduler picks it up on its next tick (on every replica).

import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { isKnownTimeZone, nextFireTime } from '../../../scheduler/cron-engine.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { isoMinutes, slackDate } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { accept, fail, splitWithoutKeyValues } from '../../../slack/command-language/command-arguments.js';
import { parseTimeOfDay } from '../../../slack/command-language/command-values.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { userTimeZone } from '../../../slack/user-time-zone.js';
import { ReminderRefusedError } from '../../../store/reminders.js';
import { parseReminderDays, type RemindParams } from '../reminder-days.js';
import { reminderInWords, scheduleLabel } from '../reminder-text.js';
import type { RemindersDeps } from '../reminders-deps.js';

/** A person's reminders are for "what is still running"; more than a handful is a mistake. */
const MAX_REMINDERS_PER_USER = 10;

export const remindOperation = defineOperation({
  name: 'remind',
  usage: `${SLASH_COMMAND} remind <time> [weekdays|daily|<cron days>]`,
  summary:
    'Show you your running machines at a time of day in your time zone (19:00, 7pm, 7:30pm): weekdays (default), daily, or cron day fields ("* * 1-5", "mon,wed").',
  help: {
    parameters: [
      '`<time>`: `19:00`, `7pm` or `7:30pm`, in your Slack time zone.',
      '`weekdays` (default), `daily`, or cron day fields (`"* * 1-5"`, `mon,wed`).',
    ],
    examples: [
      `${SLASH_COMMAND} remind 7pm`,
      `${SLASH_COMMAND} remind 18:30 daily`,
      `${SLASH_COMMAND} remind 19:00 mon,wed`,
    ],
    effect:
      'At that time, sends you a message with your running machines and Stop / Snooze 1h / Keep running on each.',
  },
  kind: 'change',
  params: z.object({
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/)
      .describe("The time of day, HH:MM, in the person's time zone."),
    schedule: z
      .enum(['weekdays', 'daily', 'cron'])
      .describe('Which days: weekdays, daily, or the cron day fields.'),
    cron: z.string().describe('The five-field cron expression of the time and the days (0 19 * * 1-5).'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('remind', args);
    if (!split.ok) return split;
    const [timeToken, ...dayTokens] = split.args.positionals;
    if (timeToken === undefined)
      return fail('Missing <time>: say when to remind you, for example 19:00 or 7pm.');
    const time = parseTimeOfDay(timeToken.text);
    if (!time.ok) return fail(`Invalid time ${echo(timeToken.text)}: ${time.error}.`);
    const days = parseReminderDays(
      dayTokens.map((token) => token.text),
      time.value.hour,
      time.value.minute,
    );
    if (!days.ok) return fail(`Invalid days: ${days.error}.`);
    return accept({ time: time.value.time, schedule: days.value.schedule, cron: days.value.cron });
  },
  run: remind,
});

async function remind(command: RemindParams, context: CommandContext, deps: RemindersDeps): Promise<void> {
  // A reminder lists machines with the person's key: without one it could only ever complain.
  if ((await context.userClient()) === undefined) return;
  const { user } = context;
  const zone = await userTimeZone({
    web: context.web,
    userId: user.userId,
    usable: isKnownTimeZone,
    logger: deps.logger,
  });
  const now = deps.now();
  const label = scheduleLabel(command);
  // Not a Paperspace change, but it makes the bot act for the person later: it goes in the trail too.
  // The store refuses a duplicate or one past the limit, also when two requests race.
  const reminder = await deps.audit
    .run(
      { user, action: 'reminder.create' },
      () =>
        deps.store.reminders.create(
          {
            ...user,
            cron: command.cron,
            timezone: zone.timezone,
            label,
            // Posting to the user id lands in their DM with the app.
            channel: user.userId,
            createdAt: now,
          },
          MAX_REMINDERS_PER_USER,
        ),
      (created) => created.id,
    )
    .catch((error: unknown) => {
      // A duplicate has the same time, days and zone as the one asked for: it reads the same.
      throw error instanceof ReminderRefusedError
        ? refusal(error, reminderInWords({ label, cron: command.cron, timezone: zone.timezone }))
        : error;
    });
  const next = nextFireTime(reminder.cron, reminder.timezone, now);
  const lines = [
    `⏰ Reminder set: ${reminderInWords(reminder)}.`,
    next === undefined
      ? ''
      : `The first one is ${slackDate(next, '{date_short_pretty} at {time}', isoMinutes(next))}.`,
    'I will message you the machines you left running, each with Stop, Snooze 1h and Keep running.',
    zone.fellBack
      ? '⚠️ Slack did not tell me your time zone, so this reminder uses UTC. Set your time zone in your Slack profile and make the reminder again.'
      : '',
  ].filter((line) => line !== '');
  const text = lines.join('\n');
  await context.replyPrivately(plainMessage(text));
}

function refusal(error: ReminderRefusedError, existing: string): UserFacingError {
  if (error.reason === 'duplicate') {
    return new UserFacingError(
      `You already have this reminder: ${existing}. \`${SLASH_COMMAND} reminders\` lists yours.`,
    );
  }
  return new UserFacingError(
    `You have ${error.detail.count} reminders, the most there can be. Turn one off first with \`${SLASH_COMMAND} remind off <number>\` (its number in \`${SLASH_COMMAND} reminders\`).`,
  );
}
