// Snooze 1h on a reminder: ask about this one machine again in an hour (the scheduler's tick delivers
// it). Snoozing again moves the time; nothing is asked of Paperspace now.
import { nameMrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { RemindersDeps } from '../reminders-deps.js';
import { markReminderRow } from './reminder-row.js';

const SNOOZE_MS = 60 * 60_000;

export function reminderSnoozeHandler(deps: RemindersDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    const now = deps.now();
    const fireAt = now + SNOOZE_MS;
    await deps.store.snoozes.snooze({
      ...click.user,
      machineId: click.machine.id,
      machineName: click.machine.name,
      // The message does not say which reminder it came from; the snooze stands on its own.
      reminderId: null,
      channel: click.channelId ?? click.user.userId,
      fireAt,
      createdAt: now,
    });
    await markReminderRow(
      client,
      click,
      deps,
      `💤 ${nameMrkdwn(click.machine.name)}: snoozed, I will ask again at ${slackDate(fireAt, '{time}')}`,
    );
  });
}
