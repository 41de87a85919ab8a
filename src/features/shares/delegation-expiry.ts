// A share's channel post says when it expires; once the delegation's four hours are over, the post is
// edited to say it expired. markExpired hands each expiry to exactly one replica. When the post cannot
// be edited (its channel was archived or deleted, or the post removed), the sharer is told in their DM
// instead, so the end of a share is never silent.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import { escapeMrkdwn, mrkdwn } from '../../slack/block-kit/text.js';
import { deliver, provesNothingPosted, slackRefusalText } from '../../slack/posting.js';
import type { Delegation } from '../../store/delegations.js';
import type { Store } from '../../store/store.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { sharePost } from './blocks/share.js';
import { sharedMachines } from './shared-machines.js';

export interface DelegationExpiry {
  tick(): Promise<void>;
}

const EXPIRIES_PER_TICK = 100;

export function createDelegationExpiry(deps: {
  store: Pick<Store, 'delegations'>;
  clients: PaperspaceClientFactory;
  slack: WebClient;
  now: () => number;
  logger: Logger;
}): DelegationExpiry {
  const { logger } = deps;

  const markPost = async (delegation: Delegation) => {
    if (delegation.messageTs === null) return;
    const message = sharePost({
      shareId: delegation.id,
      sharerUserId: delegation.userId,
      machines: await sharedMachines(deps.clients, delegation, logger),
      delegationId: delegation.delegationId,
      expiresAt: delegation.expiresAt,
      over: { kind: 'expired' },
    });
    await deps.slack.chat.update({
      channel: delegation.channel,
      ts: delegation.messageTs,
      blocks: message.blocks,
      text: message.text,
    });
  };

  const tellSharer = async (delegation: Delegation, refusal: string) => {
    const text =
      `⌛ Your share in <#${delegation.channel}> has expired: the access it gave has ended. ` +
      `I could not mark its post in the channel as expired (Slack said ${escapeMrkdwn(refusal)}).`;
    const delivery = await deliver(
      deps.slack,
      { channel: undefined, userId: delegation.userId },
      { text, blocks: [{ type: 'section', text: mrkdwn(text) }] },
    );
    if (delivery.landed === 'nowhere' || delivery.landed === 'unknown')
      logger.warn(
        { delegationId: delegation.id, landed: delivery.landed },
        'could not tell the sharer either',
      );
  };

  return {
    async tick() {
      const now = deps.now();
      const due = await deps.store.delegations.dueToExpire(now, EXPIRIES_PER_TICK);
      for (const delegation of due) {
        if (!(await deps.store.delegations.markExpired(delegation.id, now))) continue;
        try {
          await markPost(delegation);
        } catch (error) {
          logger.warn(
            { delegationId: delegation.id, channel: delegation.channel, error: describeError(error) },
            'could not mark a share post as expired',
          );
          // An edit whose fate is unknown may have landed: telling the sharer too would say it twice.
          if (provesNothingPosted(error)) await tellSharer(delegation, slackRefusalText(error));
        }
      }
    },
  };
}
