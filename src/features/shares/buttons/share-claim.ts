// Get access on a share's channel post: any member of the channel with a linked key may click it, and
// members of the sharer's Paperspace team get access; the answer, what they got and until when or why
// not, goes to them alone.

import { section } from '../../../slack/block-kit/elements.js';
import { message } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import { claimAccess } from '../share-claim.js';
import { sharingDeps } from '../share-types.js';
import { sharedMachines } from '../shared-machines.js';
import type { SharesDeps } from '../shares-deps.js';

export function shareClaimHandler(deps: SharesDeps) {
  return buttonHandler(deps, async (click, { client }) => {
    const share = await deps.store.delegations.get(click.value);
    const reply = async (text: string) => click.replyPrivately(message([section(text)], text));
    if (share === undefined) {
      await reply(
        'This share is not known to me any more: nothing was given. Ask whoever shared it to share again.',
      );
      return;
    }
    // Shows the login prompt to a member who linked no key: that is how they would use the machines.
    if ((await click.userClient()) === undefined) return;
    const account = await deps.vault.account(click.user);
    if (account === undefined) return;
    const machines = await sharedMachines(deps.clients, share, click.logger);
    const sharing = sharingDeps(deps, client, click.logger);
    await reply(
      await claimAccess(sharing, {
        claimer: click.user,
        paperspaceUserId: account.userId,
        paperspaceTeamId: account.teamId,
        share,
        machines,
      }),
    );
  });
}
