// Which reminder a person means by what they see: its number in `/ps reminders` or its time of day.
// Ids are never shown, so people cannot be asked for one; an old short id still works quietly for
// those who learned it before.
import { parseTimeOfDay } from '../../slack/command-language/command-values.js';
import type { Reminder } from '../../store/reminders.js';

/** Shorter prefixes of an old id would match by accident. */
const MIN_ID_PREFIX_LENGTH = 4;

export interface NumberedReminder {
  /** 1-based, as `/ps reminders` shows it. */
  number: number;
  reminder: Reminder;
}

/** The hour and minute a reminder fires at, from the cron expression `/ps remind` builds. */
function timeOfDay(reminder: Reminder): { hour: number; minute: number } | undefined {
  const [minute, hour] = reminder.cron.split(' ').map((field) => (/^\d+$/.test(field) ? Number(field) : NaN));
  return minute === undefined || hour === undefined || Number.isNaN(minute) || Number.isNaN(hour)
    ? undefined
    : { hour, minute };
}

const minuteOfDay = (reminder: Reminder) => {
  const time = timeOfDay(reminder);
  return time === undefined ? Number.POSITIVE_INFINITY : time.hour * 60 + time.minute;
};

/**
 * The person's reminders numbered by the time of day they fire, then by when they were made. Not by
 * the next fire time: that moves each time one fires, and `remind off 1` typed a minute after a
 * reminder went off would then turn off a different one than the list showed.
 */
export function numberReminders(reminders: readonly Reminder[]): NumberedReminder[] {
  return [...reminders]
    .sort((a, b) => minuteOfDay(a) - minuteOfDay(b) || a.createdAt - b.createdAt || a.id.localeCompare(b.id))
    .map((reminder, index) => ({ number: index + 1, reminder }));
}

export type ReminderChoice =
  | { kind: 'found'; chosen: NumberedReminder }
  /** Two or more reminders at the typed time: the person picks one by its number. */
  | { kind: 'several'; time: string; matches: NumberedReminder[] }
  | { kind: 'no number'; number: number; count: number }
  | { kind: 'no time'; time: string }
  | { kind: 'unknown' };

/** What `typed` (a number, a time such as 19:00 or 7pm, or an old id) points at among `numbered`. */
export function chooseReminder(typed: string, numbered: readonly NumberedReminder[]): ReminderChoice {
  const text = typed.trim();
  const byOldId = () => {
    const prefix = text.toLowerCase();
    const matches =
      prefix.length >= MIN_ID_PREFIX_LENGTH
        ? numbered.filter(({ reminder }) => reminder.id.startsWith(prefix))
        : [];
    return matches.length === 1 && matches[0] !== undefined ? matches[0] : undefined;
  };
  if (/^\d+$/.test(text)) {
    const number = Number(text);
    const chosen = numbered.find((entry) => entry.number === number) ?? byOldId();
    return chosen === undefined
      ? { kind: 'no number', number, count: numbered.length }
      : { kind: 'found', chosen };
  }
  const time = parseTimeOfDay(text);
  if (time.ok) {
    const matches = numbered.filter(({ reminder }) => {
      const at = timeOfDay(reminder);
      return at?.hour === time.value.hour && at.minute === time.value.minute;
    });
    const [only] = matches;
    if (only === undefined) return { kind: 'no time', time: time.value.time };
    return matches.length === 1
      ? { kind: 'found', chosen: only }
      : { kind: 'several', time: time.value.time, matches };
  }
  const chosen = byOldId();
  return chosen === undefined ? { kind: 'unknown' } : { kind: 'found', chosen };
}
