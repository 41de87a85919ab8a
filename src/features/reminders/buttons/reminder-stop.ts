// Stop on a reminder: stops the machine with the clicker's key (audited like every stop), drops a
// pending snooze of it, marks the row, and watches the machine to `off` with a reply in the
// reminder's thread, as any stop would.
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { markReminderRow } from './reminder-row.js';

export function reminderStopHandler(deps: ListenerDeps) {
  return buttonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const { user, machine } = click;
    await deps.audit.run({ user, action: 'machine.stop', resourceId: machine.id }, () =>
      paperspace.machines.stop(machine.id),
    );
    await deps.store.snoozes.cancel(user, machine.id);
    await markReminderRow(
      client,
      click,
      `🟤 *${escapeMrkdwn(machine.name)}*: stopping, requested by <@${escapeMrkdwn(user.userId)}>`,
    );
    const channel = click.channelId ?? user.userId;
    await deps.watcher.watch({
      user,
      machineId: machine.id,
      machineName: machine.name,
      targetState: 'off',
      channel,
      // The reminder lists other machines too, so it is not this machine's card: the completion goes
      // into its thread, and the message itself is left as the row update made it.
      ...(click.message === undefined ? {} : { threadTs: click.message.ts }),
    });
  });
}
