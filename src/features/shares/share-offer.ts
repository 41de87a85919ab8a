// The first step of every share, from `/ps share` and from Share on a card alike: nothing is created
// yet; the sharer alone sees what would be shared, with whom and until when, and confirms or cancels.
// Where the API shares through accessors (v1), the share is for the teammates the sharer mentions.
import { UserFacingError } from '../../errors/user-facing-error.js';
import { DELEGATION_LIFETIME_MS } from '../../paperspace/constants.js';
import type { Machine } from '../../paperspace/schemas.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import type { Interaction } from '../../slack/interaction.js';
import { resolveRecipients } from './accessor-grants.js';
import { accessorShareConfirmation } from './blocks/accessor-share.js';
import { shareConfirmation } from './blocks/share.js';
import { channelToShareIn, refuseDuplicateShare } from './sharing.js';

export async function offerShare(
  interaction: Interaction,
  machines: [Pick<Machine, 'id' | 'name'>, ...Pick<Machine, 'id' | 'name'>[]],
  mentioned: readonly string[] = [],
): Promise<void> {
  const { deps, user } = interaction;
  const channel = channelToShareIn(interaction.channelId, machines[0].name);
  const expiresAt = deps.now() + DELEGATION_LIFETIME_MS;
  if (deps.clients.capabilities.shares === 'delegation') {
    if (mentioned.length > 0) {
      throw new UserFacingError(
        'A share here is for everyone in the channel, through one resource delegation: leave out the mentions, ' +
          `as in \`${SLASH_COMMAND} share ${machines[0].name}\`.`,
      );
    }
    await refuseDuplicateShare(deps, { user, channel, machines });
    await interaction.replyPrivately(
      shareConfirmation({ sharerUserId: user.userId, channel, machines, expiresAt }),
    );
    return;
  }
  const example = `${SLASH_COMMAND} share ${machines.map((machine) => machine.name).join(' ')} @teammate`;
  const resolved = await resolveRecipients(deps.vault, user, mentioned, example);
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
    }),
  );
}
