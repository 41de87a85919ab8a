// `/ps reminders`: the person's reminders, numbered for `/ps remind off`, with their next time, and
// machines they snoozed.

import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { contextLine, section } from '../../../slack/block-kit/elements.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  escapeMrkdwn,
  LIMITS,
  mrkdwn,
  nameMrkdwn,
  plainText,
  slackDate,
} from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { Snooze } from '../../../store/reminder-snoozes.js';
import { numberReminders } from '../reminder-choice.js';
import { reminderLine } from '../reminder-text.js';
import type { RemindersDeps } from '../reminders-deps.js';

export const remindersOperation = defineOperation({
  name: 'reminders',
  usage: `${SLASH_COMMAND} reminders`,
  summary: 'List your reminders.',
  help: {
    parameters: [],
    examples: [`${SLASH_COMMAND} reminders`],
    effect: 'Answers only you with your reminders and when each fires next.',
  },
  kind: 'read',
  params: z.object({}),
  read: (args) => withoutArguments('reminders', args),
  run: listReminders,
});

async function listReminders(_command: unknown, context: CommandContext, deps: RemindersDeps): Promise<void> {
  const { user } = context;
  const [reminders, snoozes] = await Promise.all([
    deps.store.reminders.listByUser(user),
    deps.store.snoozes.listByUser(user),
  ]);
  if (reminders.length === 0 && snoozes.length === 0) {
    const text = `You have no reminders. \`${SLASH_COMMAND} remind 19:00\` shows you your running machines every weekday at 19:00.`;
    await context.replyPrivately(plainMessage(text));
    return;
  }
  const now = deps.now();
  const title = `Your reminders (${reminders.length})`;
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(title, LIMITS.headerText) }];
  if (reminders.length > 0) {
    blocks.push({
      type: 'section',
      text: mrkdwn(
        numberReminders(reminders)
          .map((numbered) => reminderLine(numbered, now))
          .join('\n'),
      ),
    });
  }
  if (snoozes.length > 0) {
    const lines = snoozes.map(
      (snooze) => `💤 ${snoozedMachine(snooze)} again at ${slackDate(snooze.fireAt, '{time}')}`,
    );
    blocks.push(section(lines.join('\n')));
  }
  const offAll = `\`${SLASH_COMMAND} remind off\` turns off all of them and the snoozes.`;
  blocks.push(
    contextLine(
      reminders.length === 0
        ? offAll
        : `\`${SLASH_COMMAND} remind off 1\` turns off reminder 1 (its time works too: \`${SLASH_COMMAND} remind off 19:00\`); ${offAll}`,
    ),
  );
  await context.replyPrivately({ blocks, text: title });
}

/** The machine by the name the reminder showed; by its id for snoozes stored before names were kept. */
function snoozedMachine(snooze: Snooze): string {
  return snooze.machineName === null
    ? `\`${escapeMrkdwn(snooze.machineId)}\``
    : `${nameMrkdwn(snooze.machineName)}`;
}
