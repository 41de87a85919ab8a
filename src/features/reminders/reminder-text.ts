// How reminders read in replies: their schedule in words, their short id, their next time.

import { nextFireTime } from '../../scheduler/cron-engine.js';
import { escapeMrkdwn, isoMinutes, slackDate } from '../../slack/block-kit/text.js';
import type { Reminder } from '../../store/reminders.js';
import type { RemindParams } from './reminder-days.js';

/** Enough of a UUID to tell one person's reminders apart; `/ps remind off` accepts it. */
const SHORT_ID_LENGTH = 8;

export const shortId = (reminder: Pick<Reminder, 'id'>) => reminder.id.slice(0, SHORT_ID_LENGTH);

/** "Weekdays at 19:00", "Every day at 07:30", "At 19:00 on * * mon,wed": stored as the reminder's label. */
export function scheduleLabel(command: RemindParams): string {
  if (command.schedule === 'weekdays') return `Weekdays at ${command.time}`;
  if (command.schedule === 'daily') return `Every day at ${command.time}`;
  const days = command.cron.split(' ').slice(2).join(' ');
  return `At ${command.time} on days ${days}`;
}

/** The reminder in one mrkdwn line: id, schedule, zone and the next time (in the reader's zone). */
export function reminderLine(reminder: Reminder, now: number): string {
  const next = nextFireTime(reminder.cron, reminder.timezone, now);
  const when =
    next === undefined
      ? 'no upcoming time'
      : `next ${slackDate(next, '{date_short_pretty} at {time}', isoMinutes(next))}`;
  const label = reminder.label ?? `\`${reminder.cron}\``;
  return `\`${shortId(reminder)}\` ${escapeMrkdwn(label)} (${escapeMrkdwn(reminder.timezone)}) · ${when}`;
}
