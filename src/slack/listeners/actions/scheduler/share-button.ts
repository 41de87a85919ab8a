// Share on a machine card: a 4-hour resource delegation for that machine, made with the clicker's key
// (they must see the machine) and posted in the card's channel, or in their DM from App Home.

import { shareMachines } from '../../../../scheduler/sharing.js';
import { postedInDmNotice } from '../../../../scheduler/slack-post.js';
import { findMachine } from '../../../../services/machine-lookup.js';
import type { ListenerDeps } from '../../deps.js';
import { buttonHandler } from './click.js';

export function shareButtonHandler(deps: ListenerDeps) {
  return buttonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const machine = await findMachine(paperspace, click.machine.id);
    const channel = click.channelId ?? click.user.userId;
    const share = await shareMachines(
      { store: deps.store, audit: deps.audit, slack: client, now: deps.now },
      paperspace,
      { user: click.user, channel, machines: [machine] },
    );
    if (share.posted.inDm && click.channelId !== undefined)
      await click.replyPrivately(postedInDmNotice('the share'));
  });
}
