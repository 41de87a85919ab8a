// Keep running on a reminder: no stop, no snooze; the row says so until the next reminder.
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import { markReminderRow } from './reminder-row.js';

export function reminderKeepHandler(deps: ListenerDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    await deps.store.snoozes.cancel(click.user, click.machine.id);
    await markReminderRow(client, click, `🟢 ${nameMrkdwn(click.machine.name)}: kept running`);
  });
}
