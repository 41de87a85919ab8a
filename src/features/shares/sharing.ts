// Sharing machines in a channel. A share is offered privately first (what, for whom, until when);
// on confirmation the bot posts in the channel BEFORE it gives any access, so a channel that refuses
// the bot (a private channel it is not in) ends with nothing created. Access is given with the
// sharer's own key the same way on both APIs: the teammates named, and the members who click Get
// access on the post, are made accessors (accessor-grants.ts, share-claim.ts); a resource delegation
// would hand the channel a token nobody may post and nobody can revoke. The share is stored so its
// post can be ended early or marked expired, and every grant it made removed. Shares stored as
// resource delegations before keep their own post until they expire.
import { slackErrorCode } from '../../errors/describe-error.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { isRefusedConversation, postIn } from '../../slack/posting.js';
import type { Delegation } from '../../store/delegations.js';
import type { SlackUser } from '../../store/slack-user.js';
import { REVOKE_RETRY_MS, revokeGrants, revokeSummary } from './accessor-grants.js';
import { accessorSharePost } from './blocks/accessor-share.js';
import { sharePending, sharePost, timeLeft } from './blocks/share.js';
import { sharePostBasis } from './share-post-basis.js';
import type { Share, SharedMachine, ShareRequest, SharingDeps } from './share-types.js';
import { shareWithAccessors } from './share-with-accessors.js';

export type { Share, ShareRequest, SharingDeps } from './share-types.js';

/** A share lives in a channel; App Home and a modal have none, so there is nobody to share with. */
export function channelToShareIn(channelId: string | undefined, machineName: string): string {
  if (channelId !== undefined) return channelId;
  throw new UserFacingError(
    `A share is posted in a channel for its members: type \`/ps share ${machineName}\` in that channel.`,
  );
}

/**
 * Refuses a share of a machine that already has a live share in this channel: the channel would see
 * two posts for one machine, and two delegations, one of which nobody asked for.
 */
export async function refuseDuplicateShare(
  deps: Pick<SharingDeps, 'store' | 'now'>,
  request: ShareRequest,
): Promise<void> {
  const live = await deps.store.delegations.listActive(deps.now(), { channel: request.channel });
  for (const machine of request.machines) {
    const existing = live.find((share) => share.machineIds.includes(machine.id));
    if (existing === undefined) continue;
    const by = existing.userId === request.user.userId ? 'you' : 'another member';
    throw new UserFacingError(
      `${machine.name} is already shared in this channel (by ${by}, for another ${timeLeft(existing.expiresAt, deps.now())}). ` +
        'End that share (`/ps shares`) before sharing it again.',
    );
  }
}

export async function shareMachines(
  deps: SharingDeps,
  client: PaperspaceClient,
  request: ShareRequest,
): Promise<Share> {
  const machines = uniqueById(request.machines);
  await refuseDuplicateShare(deps, { ...request, machines });
  const pending = sharePending(request.user.userId, machines);
  let post: { channel: string; ts: string };
  try {
    post = await postIn(deps.slack, { channel: request.channel }, pending, deps.pacer);
  } catch (error) {
    if (!isRefusedConversation(error)) throw error;
    throw new UserFacingError(
      `I cannot post in this channel (${slackErrorCode(error)}): it is private and I am not a member, or it ` +
        'is archived. Nothing was shared. Invite me (`/invite`) and share again.',
    );
  }

  return shareWithAccessors(deps, client, { ...request, machines }, post);
}

export type EndShareOutcome =
  | 'ended'
  | 'not-yours'
  | 'already-over'
  /** An accessor share ended: what removing the access achieved, as a sentence. */
  | { removed: string };

/**
 * Ends a running share before its four hours are up: every grant it made is removed at once. A share
 * stored as a resource delegation (before shares gave access through accessors) cannot be revoked, so
 * it is marked ended (it leaves `/ps shares`, its post says so) and the post says so honestly.
 */
export async function endShare(
  deps: SharingDeps,
  client: PaperspaceClient | undefined,
  user: SlackUser,
  share: Delegation,
  machines: SharedMachine[],
): Promise<EndShareOutcome> {
  if (share.teamId !== user.teamId || share.userId !== user.userId) return 'not-yours';
  const at = deps.now();
  const ended = await deps.audit.run(
    {
      user,
      action: 'delegation.end',
      resourceId: share.machineIds.join(','),
      note: `delegation ${share.delegationId}`,
    },
    () => deps.store.delegations.endEarly(share.id, at),
  );
  if (!ended) return 'already-over';
  if (share.grants !== null) return endAccessorShare(deps, client, { ...share, expiresAt: at }, machines);
  if (share.messageTs !== null) {
    const post = sharePost({
      ...sharePostBasis(share, machines),
      delegationId: share.delegationId,
      over: { kind: 'ended', endedAt: at },
    });
    try {
      await deps.slack.chat.update({ channel: share.channel, ts: share.messageTs, ...post });
    } catch (error) {
      throw new UserFacingError(
        `The share is ended, but its post still shows it running: Slack refused the update ` +
          `(${slackErrorCode(error) ?? 'Slack could not be reached'}).`,
      );
    }
  }
  return 'ended';
}

/** Removes the access an accessor share gave, at once, and says on its post what was removed. */
async function endAccessorShare(
  deps: SharingDeps,
  client: PaperspaceClient | undefined,
  share: Delegation,
  machines: SharedMachine[],
): Promise<EndShareOutcome> {
  const now = deps.now();
  // The expiry job may be removing it this very moment; one attempt at a time.
  if (!(await deps.store.delegations.claimRevoke(share.id, now, now + REVOKE_RETRY_MS))) {
    return { removed: 'Their access is being removed now.' };
  }
  // Read again once no claim can add a grant (claimRevoke): a member may have claimed meanwhile.
  const claimed = await deps.store.delegations.get(share.id);
  const after = await revokeGrants(deps, client, { ...share, grants: claimed?.grants ?? share.grants });
  if (share.messageTs !== null) {
    const post = accessorSharePost({
      ...sharePostBasis(share, machines),
      grants: after.grants ?? [],
      over: { kind: 'ended', endedAt: share.expiresAt },
      revokeFailure: after.revokeFailure,
    });
    await deps.slack.chat.update({ channel: share.channel, ts: share.messageTs, ...post }).catch((error) => {
      deps.logger.warn(
        { shareId: share.id, code: slackErrorCode(error) },
        'could not mark a share post ended',
      );
    });
  }
  return { removed: revokeSummary(after) };
}

function uniqueById(machines: SharedMachine[]): SharedMachine[] {
  return [...new Map(machines.map((machine) => [machine.id, machine])).values()];
}
