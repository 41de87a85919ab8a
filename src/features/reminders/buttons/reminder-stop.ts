// Stop on a reminder: the same Stop as a card's (the machines service checks it is not already off,
// stops it with the clicker's key through the audit trail and re-reads it), then drops a pending
// snooze of it, marks the row, and watches the machine to `off` with a reply in the reminder's thread.
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { alreadyRequestedMessage } from '../../machines/blocks/machine-replies.js';
import { followInClickedThread } from '../../machines/follow-in-thread.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import { createMachineOperations } from '../../machines/machine-operations.js';
import { markReminderRow } from './reminder-row.js';

export function reminderStopHandler(deps: ListenerDeps) {
  const operations = createMachineOperations(deps);
  return machineButtonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const { user } = click;
    const machine = await paperspace.machines.show(click.machine.id);
    const outcome = await operations.power({ user, client: paperspace }, machine, 'stop');
    await deps.store.snoozes.cancel(user, machine.id);
    const name = `${nameMrkdwn(machine.name)}`;
    if (outcome.kind === 'already_requested') {
      await click.replyPrivately(alreadyRequestedMessage(machine, 'stop', outcome));
      return;
    }
    if (outcome.kind === 'unchanged') {
      await markReminderRow(client, click, `⚫ ${name}: already off, nothing to stop`, { stopped: true });
      return;
    }
    // The row is not updated again when the machine is off: it says where that will be told.
    await markReminderRow(
      client,
      click,
      `🟤 ${name}: stopping, requested by <@${escapeMrkdwn(user.userId)}>; I reply in this thread when it is off`,
      { stopped: true },
    );
    await followInClickedThread(deps, client, click, outcome, 'stop');
  });
}
