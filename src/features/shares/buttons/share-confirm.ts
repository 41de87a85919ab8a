// Share on the private confirmation: the machines are looked up again with the clicker's key (they
// may have gone since), and so are the teammates of an accessor share; then the share is posted in the
// channel and made. The confirmation is replaced by the outcome, so it cannot be clicked twice into
// two shares.
import type { KnownBlock } from '@slack/types';
import { section } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, message } from '../../../slack/block-kit/text.js';
import { buttonHandler } from '../../../slack/button-click.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { resolveRecipients } from '../accessor-grants.js';
import { decodeShareRequest, endShareButton, when } from '../blocks/share.js';
import { sharingDeps } from '../share-types.js';
import type { SharesDeps } from '../shares-deps.js';
import { channelToShareIn, type Share, shareMachines } from '../sharing.js';

export function shareConfirmHandler(deps: SharesDeps) {
  return buttonHandler(deps, async (click, { client, respond }) => {
    const request = decodeShareRequest(click.value);
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const machines = [];
    for (const id of request.machineIds) machines.push(await findMachine(paperspace, id));
    const channel = channelToShareIn(click.channelId, machines[0]?.name ?? request.machineIds[0] ?? '');
    const names = escapeMrkdwn(machines.map((machine) => machine.name).join(', '));
    const resolved = await resolveRecipients(deps.vault, click.user, request.with);
    // Someone named may have unlinked their key since the offer.
    if (!resolved.ok) {
      await respond({ replace_original: true, ...resolved.refusal });
      return;
    }
    const { recipients } = resolved;
    const sharing = sharingDeps(deps, client, click.logger);
    const share = await shareMachines(sharing, paperspace, {
      user: click.user,
      channel,
      machines,
      recipients,
    });
    const text = `✅ Shared ${names} in <#${escapeMrkdwn(share.post.channel)}> until ${when(share.delegation.expiresAt)} ${how(share, recipients.length > 0)}.`;
    // End share lives here and in /ps shares, where only the sharer sees it.
    const end = endShareButton(
      share.delegation.id,
      machines.map((machine) => machine.name),
      share.delegation.grants !== null,
    );
    const blocks: KnownBlock[] = [section(text), { type: 'actions', elements: [end] }];
    await respond({ replace_original: true, ...message(blocks, text) });
  });
}

/** What the share handed out, for the sharer's eyes only (an access token id stays out of the channel). */
function how({ delegation }: Share, named: boolean): string {
  if (delegation.grants !== null) {
    const people = [...new Set(delegation.grants.map((grant) => `<@${grant.slackUserId}>`))];
    if (people.length > 0) {
      return `with ${people.join(', ')}, who can use them until then; other members get access from the post`;
    }
    return named
      ? '(everyone you named already had access, which stays as it was; other members get access from the post)'
      : '(members get access with Get access on the post)';
  }
  return (
    `(resource delegation ${escapeMrkdwn(delegation.delegationId)}, ` +
    `access token id \`${escapeMrkdwn(delegation.accessTokenId)}\`)`
  );
}
