// Stop on a forgotten-machine alert: the machine is re-read and stopped with the clicker's own key
// through the machines service (audited as machine.stop), the alert says who stopped it, and a watch
// follows it to off with a reply in the alert's thread.
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { alreadyRequestedMessage } from '../../machines/blocks/machine-replies.js';
import { followInClickedThread } from '../../machines/follow-in-thread.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import { createMachineOperations } from '../../machines/machine-operations.js';
import { markAlert } from './alert-message.js';

export function alertStopHandler(deps: ListenerDeps) {
  const operations = createMachineOperations(deps);
  return machineButtonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const { user } = click;
    const machine = await paperspace.machines.show(click.machine.id);
    const outcome = await operations.power({ user, client: paperspace }, machine, 'stop');
    const name = nameMrkdwn(machine.name);
    if (outcome.kind === 'already_requested') {
      await click.replyPrivately(alreadyRequestedMessage(machine, 'stop', outcome));
      return;
    }
    if (outcome.kind === 'unchanged') {
      await markAlert(client, click, `⚫ ${name} was already off: nothing to stop.`);
      return;
    }
    await markAlert(client, click, `🟤 ${name}: stopping, requested by <@${escapeMrkdwn(user.userId)}>.`);
    await followInClickedThread(deps, client, click, outcome, 'stop');
  });
}
