// The second half of a share, once its "sharing…" post stands in the channel: the teammates named are
// made accessors, the share is stored with exactly those grants, and the post says who has access,
// what members can do and until when, with Get access for the rest of the channel. If Paperspace refuses a grant, the grants already made are removed and the
// post goes; a removal that fails too is kept for the scheduler to retry, and the sharer told so.
import { slackErrorCode } from '../../errors/describe-error.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { messageForUser } from '../../errors/user-message.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { DELEGATION_LIFETIME_MS } from '../../paperspace/constants.js';
import {
  existingAccess,
  grantAccess,
  REVOKE_RETRY_MS,
  revokeGrants,
  revokeSummary,
} from './accessor-grants.js';
import { accessorSharePost } from './blocks/accessor-share.js';
import { timeLeft } from './blocks/share.js';
import type { Share, ShareRequest, SharingDeps } from './share-types.js';

export async function shareWithAccessors(
  deps: SharingDeps,
  client: PaperspaceClient,
  request: ShareRequest,
  post: { channel: string; ts: string },
): Promise<Share> {
  const { user, machines } = request;
  const recipients = request.recipients ?? [];
  const machineIds = machines.map((machine) => machine.id);
  const names = machines.map((machine) => machine.name).join(', ');
  const createdAt = deps.now();
  const hasAccess = existingAccess(deps.clients, client, user.teamId);
  const { grants, error } = await grantAccess(deps, client, user, machineIds, recipients, hasAccess);
  const base = {
    teamId: user.teamId,
    userId: user.userId,
    delegationId: '',
    accessTokenId: '',
    channel: post.channel,
    machineIds,
    createdAt,
    grants,
  };

  if (error !== undefined) {
    const reason = messageForUser(error, deps.logger);
    if (grants.length === 0) {
      await deps.slack.chat.delete({ channel: post.channel, ts: post.ts }).catch(() => undefined);
      throw new UserFacingError(`Nothing was shared: ${reason}`);
    }
    // Some access was given before the refusal: stored as a share already over, so whatever cannot
    // be removed now is retried by the scheduler like an expired share's.
    const stored = await deps.store.delegations.create({ ...base, messageTs: post.ts, expiresAt: createdAt });
    await deps.store.delegations.claimRevoke(stored.id, createdAt, createdAt + REVOKE_RETRY_MS);
    const after = await revokeGrants(deps, client, stored);
    if (after.revokedAt !== null) {
      await deps.slack.chat.delete({ channel: post.channel, ts: post.ts }).catch(() => undefined);
    } else {
      const over = accessorSharePost({
        shareId: stored.id,
        sharerUserId: user.userId,
        machines,
        grants: after.grants ?? [],
        expiresAt: createdAt,
        over: { kind: 'ended', endedAt: createdAt },
        revokeFailure: after.revokeFailure,
      });
      await deps.slack.chat.update({ channel: post.channel, ts: post.ts, ...over }).catch(() => undefined);
    }
    throw new UserFacingError(`The share of ${names} failed: ${reason} ${revokeSummary(after)}`);
  }

  const expiresAt = createdAt + DELEGATION_LIFETIME_MS;
  const delegation = await deps.store.delegations.create({ ...base, messageTs: post.ts, expiresAt });
  const live = accessorSharePost({
    shareId: delegation.id,
    sharerUserId: user.userId,
    machines,
    grants,
    expiresAt,
    rights: client.capabilities.accessorRights,
  });
  try {
    await deps.slack.chat.update({ channel: post.channel, ts: post.ts, ...live });
  } catch (updateError) {
    throw new UserFacingError(
      `Shared ${names} for ${timeLeft(expiresAt, deps.now())}, but the post in the channel still says "sharing…": ` +
        `Slack refused the update (${slackErrorCode(updateError) ?? 'Slack could not be reached'}). \`/ps shares\` lists it.`,
    );
  }
  return { delegation, post };
}
