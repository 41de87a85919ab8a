// The first step of every share, from `/ps share` and from Share on a card alike: nothing is created
// yet; the sharer alone sees what would be shared, in which channel, with whom at once (the teammates
// mentioned) and until when, and confirms or cancels. It means the same on both APIs.
import { DELEGATION_LIFETIME_MS } from '../../paperspace/constants.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { Interaction } from '../../slack/interaction.js';
import { resolveRecipients } from './accessor-grants.js';
import { accessorShareConfirmation } from './blocks/accessor-share.js';
import type { SharesDeps } from './shares-deps.js';
import { channelToShareIn, refuseDuplicateShare } from './sharing.js';

export async function offerShare(
  interaction: Interaction,
  deps: SharesDeps,
  machines: [Pick<Machine, 'id' | 'name'>, ...Pick<Machine, 'id' | 'name'>[]],
  mentioned: readonly string[] = [],
): Promise<void> {
  const { user } = interaction;
  const channel = channelToShareIn(interaction.channelId, machines[0].name);
  const expiresAt = deps.now() + DELEGATION_LIFETIME_MS;
  const resolved = await resolveRecipients(deps.vault, user, mentioned);
  if (!resolved.ok) {
    await interaction.replyPrivately(resolved.refusal);
    return;
  }
  await refuseDuplicateShare(deps, { user, channel, machines });
  await interaction.replyPrivately(
    accessorShareConfirmation({
      sharerUserId: user.userId,
      channel,
      machines,
      with: resolved.recipients.map((recipient) => recipient.slackUserId),
      expiresAt,
      rights: interaction.deps.clients.capabilities.accessorRights,
    }),
  );
}
