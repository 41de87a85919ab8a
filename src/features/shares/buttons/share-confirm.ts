// Share on the private confirmation: the machines are looked up again with the clicker's key (they
// may have gone since), then posted in the channel and shared. The confirmation is replaced by the
// outcome, so it cannot be clicked twice into two shares.
import { escapeMrkdwn, isoMinutes, message, mrkdwn } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { decodeShareRequest } from '../blocks/share.js';
import { channelToShareIn, shareMachines } from '../sharing.js';

export function shareConfirmHandler(deps: ListenerDeps) {
  return buttonHandler(deps, async (click, { client, respond }) => {
    const machineIds = decodeShareRequest(click.value);
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const machines = [];
    for (const id of machineIds) machines.push(await findMachine(paperspace, id));
    const channel = channelToShareIn(click.channelId, machines[0]?.name ?? machineIds[0] ?? '');
    const share = await shareMachines(
      { store: deps.store, audit: deps.audit, slack: client, now: deps.now },
      paperspace,
      { user: click.user, channel, machines },
    );
    const text =
      `✅ Shared ${escapeMrkdwn(machines.map((machine) => machine.name).join(', '))} in <#${escapeMrkdwn(share.post.channel)}> ` +
      `until ${isoMinutes(share.delegation.expiresAt)} (resource delegation ${escapeMrkdwn(share.delegation.delegationId)}, ` +
      `access token id \`${escapeMrkdwn(share.delegation.accessTokenId)}\`). End it early from its post.`;
    await respond({ replace_original: true, ...message([{ type: 'section', text: mrkdwn(text) }], text) });
  });
}
