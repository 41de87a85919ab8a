// `/ps remind <time> [weekdays|daily|<cron days>]`: a shutdown reminder at that time in the person's
// own Slack time zone. It is stored; the scheduler picks it up on its next tick (on every replica).

import { UserFacingError } from '../../../errors/user-facing-error.js';
import { isKnownTimeZone, nextFireTime } from '../../../scheduler/cron-engine.js';
import { escapeMrkdwn, isoMinutes, mrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { userTimeZone } from '../../../slack/user-time-zone.js';
import { ReminderRefusedError } from '../../../store/reminders.js';
import { scheduleLabel, shortId } from '../reminder-text.js';

/** A person's reminders are for "what is still running"; more than a handful is a mistake. */
const MAX_REMINDERS_PER_USER = 10;

export const remindCommand: CommandHandler<'remind'> = async (command, context) => {
  // A reminder lists machines with the person's key: without one it could only ever complain.
  if ((await context.userClient()) === undefined) return;
  const { deps, user } = context;
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
      throw error instanceof ReminderRefusedError ? refusal(error) : error;
    });
  const next = nextFireTime(reminder.cron, reminder.timezone, now);
  const lines = [
    `⏰ Reminder set: ${escapeMrkdwn(label)} (${escapeMrkdwn(zone.timezone)}), id \`${shortId(reminder)}\`.`,
    next === undefined
      ? ''
      : `The first one is ${slackDate(next, '{date_short_pretty} at {time}', isoMinutes(next))}.`,
    'I will message you the machines you left running, each with Stop, Snooze 1h and Keep running.',
    zone.fellBack
      ? '⚠️ Slack did not tell me your time zone, so this reminder uses UTC. Set your time zone in your Slack profile and make the reminder again.'
      : '',
  ].filter((line) => line !== '');
  const text = lines.join('\n');
  await context.replyPrivately({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });
};

function refusal(error: ReminderRefusedError): UserFacingError {
  if (error.reason === 'duplicate') {
    const id = shortId({ id: error.detail.existingId ?? '' });
    return new UserFacingError(
      `You already have this reminder (${id}). \`${SLASH_COMMAND} reminders\` lists yours.`,
    );
  }
  return new UserFacingError(
    `You have ${error.detail.count} reminders, the most there can be. Turn one off first with \`${SLASH_COMMAND} remind off <id>\`.`,
  );
}
