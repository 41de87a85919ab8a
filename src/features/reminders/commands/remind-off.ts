// `/ps remind off [number|time]`: one reminder (by its number in `/ps reminders` or its time), or all
// of them and every pending snooze.
// A reminder deleted here stops firing at once on every replica: its next occurrence cannot be claimed.

import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn, plural } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { Reminder } from '../../../store/reminders.js';
import { chooseReminder, numberReminders, type ReminderChoice } from '../reminder-choice.js';
import { reminderInWords } from '../reminder-text.js';
import type { RemindersDeps } from '../reminders-deps.js';

const LIST_HINT = `\`${SLASH_COMMAND} reminders\` lists yours with their numbers.`;

export const remindOffOperation = defineOperation({
  name: 'remind off',
  usage: `${SLASH_COMMAND} remind off [number|time]`,
  summary: 'Turn off one reminder, or all of them and any snoozes.',
  help: {
    parameters: [
      '`[number|time]`: one reminder, by its number in `/ps reminders` (`2`) or its time (`19:00`, `7pm`); default: all of them, and any snoozes.',
    ],
    examples: [
      `${SLASH_COMMAND} remind off`,
      `${SLASH_COMMAND} remind off 2`,
      `${SLASH_COMMAND} remind off 7pm`,
    ],
    effect: 'Turns the reminder(s) off; nothing else changes.',
  },
  kind: 'change',
  params: z.object({
    reminder: z
      .string()
      .regex(/^\S+$/)
      .nullable()
      .describe(
        'Which reminder: its number in the list of reminders ("2") or its time of day ("19:00", "7pm"); null for all of them and any snoozes.',
      ),
  }),
  read(args) {
    const split = splitWithoutKeyValues('remind off', args);
    if (!split.ok) return split;
    const [which] = split.args.positionals;
    const text = which?.text.trim() ?? '';
    if (which !== undefined && (text === '' || /\s/.test(text))) {
      return fail(
        `Invalid reminder ${echo(text)}: give its number in \`${SLASH_COMMAND} reminders\` or its time.`,
      );
    }
    const extra = tooMany(
      'remind off',
      split.args.positionals,
      1,
      'at most one reminder (its number or its time)',
    );
    return extra ?? accept({ reminder: which === undefined ? null : text });
  },
  run: turnOff,
});

async function turnOff(
  command: { reminder: string | null },
  context: CommandContext,
  deps: RemindersDeps,
): Promise<void> {
  const { user } = context;
  let text: string;
  if (command.reminder === null) {
    // Snoozes first: deleting a reminder also drops its snoozes, and then they would not be counted.
    const { reminders, snoozes } = await deps.audit.run({ user, action: 'reminder.delete_all' }, async () => {
      const cancelled = await deps.store.snoozes.cancelAllOf(user);
      return { snoozes: cancelled, reminders: await deps.store.reminders.deleteByUser(user) };
    });
    text = turnedOffText(reminders, snoozes);
  } else {
    const choice = chooseReminder(
      command.reminder,
      numberReminders(await deps.store.reminders.listByUser(user)),
    );
    const match = chosenOrRefuse(choice, command.reminder);
    await deps.audit.run({ user, action: 'reminder.delete', resourceId: match.id }, () =>
      deps.store.reminders.delete(user, match.id),
    );
    text = `Turned off your reminder ${reminderInWords(match)}.`;
  }
  await context.replyPrivately(plainMessage(text));
}

/** The reminder the person meant, or a sentence saying why there is none that is theirs to turn off. */
function chosenOrRefuse(choice: ReminderChoice, typed: string): Reminder {
  switch (choice.kind) {
    case 'found':
      return choice.chosen.reminder;
    case 'several': {
      const lines = choice.matches.map(({ number, reminder }) => `${number}. ${reminderInWords(reminder)}`);
      const numbers = choice.matches.map(({ number }) => `\`${SLASH_COMMAND} remind off ${number}\``);
      throw new UserFacingError(
        [
          `You have ${choice.matches.length} reminders at ${choice.time}:`,
          ...lines,
          `Say which by its number: ${numbers.join(' or ')}.`,
        ].join('\n'),
      );
    }
    case 'no number':
      throw new UserFacingError(
        choice.count === 0
          ? 'You have no reminders to turn off.'
          : `You have no reminder ${choice.number}: you have ${plural(choice.count, 'reminder')}. ${LIST_HINT}`,
      );
    case 'no time':
      throw new UserFacingError(`You have no reminder at ${choice.time}. ${LIST_HINT}`);
    case 'unknown':
      throw new UserFacingError(
        `"${escapeMrkdwn(typed)}" is not one of your reminders: give its number or its time (19:00, 7pm). ${LIST_HINT}`,
      );
  }
}

function turnedOffText(reminders: number, snoozes: number): string {
  if (reminders === 0 && snoozes === 0) return 'You had no reminders.';
  const parts = [
    ...(reminders > 0 ? [plural(reminders, 'reminder')] : []),
    ...(snoozes > 0 ? [plural(snoozes, 'snoozed reminder')] : []),
  ];
  return `Turned off ${parts.join(' and ')}.`;
}
