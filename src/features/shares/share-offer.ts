// The first step of every share, from `/ps share` and from Share on a card alike: nothing is created
// yet; the sharer alone sees what would be shared, with whom and until when, and confirms or cancels.
import { DELEGATION_LIFETIME_MS } from '../../paperspace/constants.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { Interaction } from '../../slack/interaction.js';
import { shareConfirmation } from './blocks/share.js';
import { channelToShareIn, refuseDuplicateShare } from './sharing.js';

export async function offerShare(
  interaction: Interaction,
  machines: [Pick<Machine, 'id' | 'name'>, ...Pick<Machine, 'id' | 'name'>[]],
): Promise<void> {
  const { deps, user } = interaction;
  const channel = channelToShareIn(interaction.channelId, machines[0].name);
  await refuseDuplicateShare(deps, { user, channel, machines });
  await interaction.replyPrivately(
    shareConfirmation({
      sharerUserId: user.userId,
      channel,
      machines,
      expiresAt: deps.now() + DELEGATION_LIFETIME_MS,
    }),
  );
}
