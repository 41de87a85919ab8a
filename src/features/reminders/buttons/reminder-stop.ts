// Stop on a reminder: the row Stop every listing message shares (approvals/stop-from-row.ts: the same
// stop as a card's, with the clicker's key, watched to `off` with a reply in the reminder's thread);
// it also drops a pending snooze of the machine, and marks the row.
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { createStopFromRow } from '../../approvals/stop-from-row.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { RemindersDeps } from '../reminders-deps.js';
import { markReminderRow } from './reminder-row.js';

export function reminderStopHandler(deps: RemindersDeps) {
  const stopFromRow = createStopFromRow(deps);
  return machineButtonHandler(deps, (click, { client }) =>
    stopFromRow(click, client, {
      clicked: async (machine) => {
        await deps.store.snoozes.cancel(click.user, machine.id);
      },
      markAlreadyOff: (machine) =>
        markReminderRow(client, click, deps, `⚫ ${nameMrkdwn(machine.name)}: already off, nothing to stop`, {
          stopped: true,
        }),
      // The row is not updated again when the machine is off: it says where that will be told.
      markStopping: (machine, requestedBy) =>
        markReminderRow(
          client,
          click,
          deps,
          `🟤 ${nameMrkdwn(machine.name)}: stopping, requested by ${requestedBy}; I reply in this thread when it is off`,
          { stopped: true },
        ),
    }),
  );
}
