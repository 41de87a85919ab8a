// `/ps remind off [id]`: one reminder (by its id, or the short id the lists show), or all of them and
// every pending snooze.
// A reminder deleted here stops firing at once on every replica: its next occurrence cannot be claimed.
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { escapeMrkdwn, mrkdwn, plural } from '../../../slack/block-kit/text.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { shortId } from '../reminder-text.js';

/** Shorter prefixes would match by accident. */
const MIN_PREFIX_LENGTH = 4;

export const remindOffCommand: CommandHandler<'remind off'> = async (command, context) => {
  const { deps, user } = context;
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
  await context.replyPrivately({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });
};

function turnedOffText(reminders: number, snoozes: number): string {
  if (reminders === 0 && snoozes === 0) return 'You had no reminders.';
  const parts = [
    ...(reminders > 0 ? [plural(reminders, 'reminder')] : []),
    ...(snoozes > 0 ? [plural(snoozes, 'snoozed reminder')] : []),
  ];
  return `Turned off ${parts.join(' and ')}.`;
}
