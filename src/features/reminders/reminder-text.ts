// How reminders read in replies: their schedule in words, their number in the list, their next time.
// Never their id: people name a reminder by its number or its time (reminder-choice.ts).

import { nextFireTime } from '../../scheduler/cron-engine.js';
import { escapeMrkdwn, isoMinutes, slackDate } from '../../slack/block-kit/text.js';
import type { Reminder } from '../../store/reminders.js';
import { daysInWords } from './days-in-words.js';
import type { NumberedReminder } from './reminder-choice.js';
import type { RemindParams } from './reminder-days.js';

/** "Weekdays at 19:00", "Every day at 07:30", "At 19:00 on Monday and Wednesday": stored as its label. */
export function scheduleLabel(command: RemindParams): string {
  if (command.schedule === 'weekdays') return `Weekdays at ${command.time}`;
  if (command.schedule === 'daily') return `Every day at ${command.time}`;
  const [, , dayOfMonth = '*', month = '*', dayOfWeek = '*'] = command.cron.split(' ');
  return `At ${command.time} on ${daysInWords(dayOfMonth, month, dayOfWeek)}`;
}

/** The reminder inside a sentence: "weekdays at 19:00 (Europe/Amsterdam)", as mrkdwn. */
export function reminderInWords(reminder: Pick<Reminder, 'label' | 'cron' | 'timezone'>): string {
  const label = reminder.label ?? `at ${reminder.cron}`;
  const lowered = label.charAt(0).toLowerCase() + label.slice(1);
  return `${escapeMrkdwn(lowered)} (${escapeMrkdwn(reminder.timezone)})`;
}

/** The reminder in one mrkdwn line: its number, schedule, zone and the next time (in the reader's zone). */
export function reminderLine({ number, reminder }: NumberedReminder, now: number): string {
  const next = nextFireTime(reminder.cron, reminder.timezone, now);
  const when =
    next === undefined
      ? 'no upcoming time'
      : `next ${slackDate(next, '{date_short_pretty} at {time}', isoMinutes(next))}`;
  const label = reminder.label ?? `At ${reminder.cron}`;
  return `${number}. ${escapeMrkdwn(label)} (${escapeMrkdwn(reminder.timezone)}) · ${when}`;
}
