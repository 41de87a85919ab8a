// Keep running on a reminder: no stop, no snooze; the row says so until the next reminder.
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { RemindersDeps } from '../reminders-deps.js';
import { markReminderRow } from './reminder-row.js';

export function reminderKeepHandler(deps: RemindersDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    await deps.store.snoozes.cancel(click.user, click.machine.id);
    await markReminderRow(client, click, deps, `🟢 ${nameMrkdwn(click.machine.name)}: kept running`);
  });
}
