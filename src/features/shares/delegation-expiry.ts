// A share's channel post says when it expires; once its four hours are over, the post is edited to
// say it expired. markExpired hands each expiry to exactly one replica. An accessor share (v1) first
// has the access it gave removed (claimRevoke: one replica per attempt), retried while Paperspace
// refuses, and its post says whether the access is gone. When the post cannot be edited (its channel
// was archived or deleted, or the post removed), the sharer is told in their DM instead, so the end
// of a share is never silent.

import { describeError } from '../../errors/describe-error.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import { deliver, provesNothingPosted, slackRefusalText } from '../../slack/posting.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { Delegation } from '../../store/delegations.js';
import type { Store } from '../../store/store.js';
import type { JobResources } from '../job-needs.js';
import { REVOKE_RETRY_MS, revokeGrants } from './accessor-grants.js';
import { accessorSharePost } from './blocks/accessor-share.js';
import { sharePost } from './blocks/share.js';
import { sharePostBasis } from './share-post-basis.js';
import { sharedMachines } from './shared-machines.js';

export interface DelegationExpiry {
  tick(): Promise<void>;
}

const EXPIRIES_PER_TICK = 100;

interface DelegationExpiryDeps extends Pick<JobResources, 'clients' | 'slack' | 'now' | 'logger'> {
  store: Pick<Store, 'delegations'>;
  audit: AuditTrail;
}

export function createDelegationExpiry(deps: DelegationExpiryDeps): DelegationExpiry {
  const { logger } = deps;

  const postOf = async (share: Delegation) => {
    const machines = await sharedMachines(deps.clients, share, logger);
    if (share.grants === null) {
      return sharePost({
        shareId: share.id,
        sharerUserId: share.userId,
        machines,
        delegationId: share.delegationId,
        expiresAt: share.expiresAt,
        over: { kind: 'expired' },
      });
    }
    // A share ended early ends before its four hours; its post already says so, and keeps saying it.
    const basis = sharePostBasis(share, machines);
    return accessorSharePost({
      ...basis,
      grants: share.grants,
      over:
        share.expiresAt < basis.expiresAt ? { kind: 'ended', endedAt: share.expiresAt } : { kind: 'expired' },
      revokeFailure: share.revokeFailure,
    });
  };

  const markPost = async (share: Delegation) => {
    if (share.messageTs === null) return;
    const message = await postOf(share);
    await (await deps.slack(share.teamId)).chat.update({
      channel: share.channel,
      ts: share.messageTs,
      blocks: message.blocks,
      text: message.text,
    });
  };

  const tellSharer = async (share: Delegation, refusal: string) => {
    const access =
      share.grants !== null && share.revokedAt === null
        ? 'the access it gave is not removed yet, and I keep trying'
        : 'the access it gave has ended';
    const text =
      `⌛ Your share in <#${share.channel}> is over: ${access}. ` +
      `I could not mark its post in the channel (Slack said ${escapeMrkdwn(refusal)}).`;
    const delivery = await deliver(
      await deps.slack(share.teamId),
      { channel: undefined, userId: share.userId },
      plainMessage(text),
    );
    if (delivery.landed === 'nowhere' || delivery.landed === 'unknown')
      logger.warn({ delegationId: share.id, landed: delivery.landed }, 'could not tell the sharer either');
  };

  const markPostOrWarn = async (share: Delegation) => {
    try {
      await markPost(share);
    } catch (error) {
      logger.warn(
        { delegationId: share.id, channel: share.channel, error: describeError(error) },
        'could not mark a share post as over',
      );
      // An edit whose fate is unknown may have landed: telling the sharer too would say it twice.
      if (provesNothingPosted(error)) await tellSharer(share, slackRefusalText(error));
    }
  };

  const revokeDue = async (now: number) => {
    for (const share of await deps.store.delegations.dueToRevoke(now, EXPIRIES_PER_TICK)) {
      if (!(await deps.store.delegations.claimRevoke(share.id, now, now + REVOKE_RETRY_MS))) continue;
      // Read again once no claim can add a grant (claimRevoke): a member may have claimed meanwhile.
      const current = (await deps.store.delegations.get(share.id)) ?? share;
      const client = await deps.clients.forUser(current).catch(() => undefined);
      const after = await revokeGrants(deps, client, current);
      // The post changes when the share first ends and when the access is finally removed; a retry
      // that failed again leaves it as it was.
      if (after.revokedAt !== null || current.revokeFailure === null) await markPostOrWarn(after);
    }
  };

  return {
    async tick() {
      const now = deps.now();
      await revokeDue(now);
      const due = await deps.store.delegations.dueToExpire(now, EXPIRIES_PER_TICK);
      for (const delegation of due) {
        if (!(await deps.store.delegations.markExpired(delegation.id, now))) continue;
        await markPostOrWarn(delegation);
      }
    },
  };
}
