// Stop on a team digest's row: acts with the clicker's own key, as a card's Stop does. Someone else's
// machine gets the same answer as anywhere else (under the owner's standing grant, or "Ask the
// owner"); a stop that went through marks the row and is watched to `off` in the digest's thread. The
// click is audited as coming from the digest, the stop itself as every stop is.
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { routePowerToOwner } from '../../approvals/owner-route.js';
import { alreadyRequestedMessage, powerUnchangedMessage } from '../../machines/blocks/machine-replies.js';
import { followInClickedThread } from '../../machines/follow-in-thread.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import { createMachineOperations } from '../../machines/machine-operations.js';
import { markDigestRow } from './digest-row.js';

export function digestStopHandler(deps: ListenerDeps) {
  const operations = createMachineOperations(deps);
  return machineButtonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const { user } = click;
    const machine = await paperspace.machines.show(click.machine.id);
    const channel = click.channelId ?? user.userId;
    // The click is recorded with its outcome (stopped, unchanged, routed to the owner, or failed); the
    // stop call itself is recorded by the machines service as every stop is.
    const outcome = await deps.audit.run(
      { user, action: 'digest.stop', resourceId: machine.id, note: 'Stop clicked on the team digest' },
      async () => {
        const route = await routePowerToOwner(click, machine, 'stop', {
          deps,
          web: client,
          noWait: false,
          card: { kind: 'post', channel },
          tell: click.replyPrivately,
        });
        return route === 'handled'
          ? undefined
          : operations.power({ user, client: paperspace }, machine, 'stop');
      },
    );
    if (outcome === undefined) return;
    if (outcome.kind === 'already_requested') {
      await click.replyPrivately(alreadyRequestedMessage(machine, 'stop', outcome));
      return;
    }
    if (outcome.kind === 'unchanged') {
      await click.replyPrivately(powerUnchangedMessage(outcome.machine, outcome.reason));
      return;
    }
    await markDigestRow(
      client,
      click,
      `🟤 ${nameMrkdwn(machine.name)}: stopping, requested by <@${escapeMrkdwn(user.userId)}>`,
    );
    await followInClickedThread(deps, client, click, outcome, 'stop');
  });
}
