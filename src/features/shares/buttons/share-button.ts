// Share on a machine card: a 4-hour resource delegation for that machine, made with the clicker's key
// (they must see the machine) and posted in the card's channel, or in their DM from App Home.

import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { postedInDmNotice } from '../../../slack/posting.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { shareMachines } from '../sharing.js';

export function shareButtonHandler(deps: ListenerDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const machine = await findMachine(paperspace, click.machine.id);
    const channel = click.channelId ?? click.user.userId;
    const share = await shareMachines(
      { store: deps.store, audit: deps.audit, slack: client, now: deps.now },
      paperspace,
      { user: click.user, channel, machines: [machine] },
    );
    if (share.posted.movedToDm && click.channelId !== undefined)
      await click.replyPrivately(postedInDmNotice('the share'));
  });
}
