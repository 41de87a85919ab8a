// `/ps remind off [id]`: one reminder (by its id, or the short id the lists show), or all of them and
// every pending snooze.
// A reminder deleted here stops firing at once on every replica: its next occurrence cannot be claimed.

import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn, plural } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  readId,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { shortId } from '../reminder-text.js';
import type { RemindersDeps } from '../reminders-deps.js';

/** Shorter prefixes would match by accident. */
const MIN_PREFIX_LENGTH = 4;

export const remindOffOperation = defineOperation({
  name: 'remind off',
  usage: `${SLASH_COMMAND} remind off [id]`,
  summary: 'Turn off one reminder, or all of them and any snoozes.',
  help: {
    parameters: ['`[id]`: one reminder from `/ps reminders` (default: all of them, and any snoozes).'],
    examples: [`${SLASH_COMMAND} remind off`, `${SLASH_COMMAND} remind off rem123`],
    effect: 'Turns the reminder(s) off; nothing else changes.',
  },
  kind: 'change',
  params: z.object({
    reminderId: z
      .string()
      .min(1)
      .nullable()
      .describe("One reminder's id (or its first characters), or null for all of them."),
  }),
  read(args) {
    const split = splitWithoutKeyValues('remind off', args);
    if (!split.ok) return split;
    const [idToken] = split.args.positionals;
    const reminderId = idToken === undefined ? null : readId(idToken, 'reminder');
    if (reminderId !== null && !reminderId.ok) return reminderId;
    const extra = tooMany('remind off', split.args.positionals, 1, 'at most one reminder <id>');
    return extra ?? accept({ reminderId: reminderId?.value ?? null });
  },
  run: turnOff,
});

async function turnOff(
  command: { reminderId: string | null },
  context: CommandContext,
  deps: RemindersDeps,
): Promise<void> {
  const { user } = context;
  let text: string;
  if (command.reminderId === null) {
    // Snoozes first: deleting a reminder also drops its snoozes, and then they would not be counted.
    const { reminders, snoozes } = await deps.audit.run({ user, action: 'reminder.delete_all' }, async () => {
      const cancelled = await deps.store.snoozes.cancelAllOf(user);
      return { snoozes: cancelled, reminders: await deps.store.reminders.deleteByUser(user) };
    });
    text = turnedOffText(reminders, snoozes);
  } else {
    const typed = command.reminderId.toLowerCase();
    const matches = (await deps.store.reminders.listByUser(user)).filter(
      (reminder) =>
        reminder.id === typed || (typed.length >= MIN_PREFIX_LENGTH && reminder.id.startsWith(typed)),
    );
    const [match] = matches;
    if (match === undefined) {
      throw new UserFacingError(
        `You have no reminder with id "${command.reminderId}". \`${SLASH_COMMAND} reminders\` lists yours.`,
      );
    }
    if (matches.length > 1) {
      throw new UserFacingError(
        `"${command.reminderId}" matches ${matches.length} of your reminders; give more of the id.`,
      );
    }
    await deps.audit.run({ user, action: 'reminder.delete', resourceId: match.id }, () =>
      deps.store.reminders.delete(user, match.id),
    );
    text = `Turned off reminder \`${shortId(match)}\` (${escapeMrkdwn(match.label ?? match.cron)}).`;
  }
  await context.replyPrivately(plainMessage(text));
}

function turnedOffText(reminders: number, snoozes: number): string {
  if (reminders === 0 && snoozes === 0) return 'You had no reminders.';
  const parts = [
    ...(reminders > 0 ? [plural(reminders, 'reminder')] : []),
    ...(snoozes > 0 ? [plural(snoozes, 'snoozed reminder')] : []),
  ];
  return `Turned off ${parts.join(' and ')}.`;
}
