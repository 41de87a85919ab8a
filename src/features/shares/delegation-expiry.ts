// A share's channel post says when it expires; once the delegation's four hours are over, the post is
// edited to say it expired. markExpired hands each expiry to exactly one replica.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { Delegation } from '../../store/delegations.js';
import type { Store } from '../../store/store.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { shareMessage } from './blocks/share.js';

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

  /**
   * The store keeps machine ids only; the post shows names, so they are looked up with the sharer's
   * key (one list call). A machine no longer visible, or a sharer who unlinked, is shown by id.
   */
  const machinesOf = async (delegation: Delegation) => {
    const names = new Map<string, string>();
    try {
      const client = await deps.clients.forUser(delegation);
      const visible = client ? await client.machines.list({}, { maxRetries: 0 }) : [];
      for (const machine of visible) names.set(machine.id, machine.name);
    } catch (error) {
      logger.warn(
        { delegationId: delegation.id, error: describeError(error) },
        'could not name shared machines',
      );
    }
    return delegation.machineIds.map((id) => ({ id, name: names.get(id) ?? id }));
  };

  const markPost = async (delegation: Delegation) => {
    if (delegation.messageTs === null) return;
    const message = shareMessage({
      sharerUserId: delegation.userId,
      machines: await machinesOf(delegation),
      delegationId: delegation.delegationId,
      accessTokenId: delegation.accessTokenId,
      expiresAt: delegation.expiresAt,
      expired: true,
    });
    await deps.slack.chat.update({
      channel: delegation.channel,
      ts: delegation.messageTs,
      blocks: message.blocks,
      text: message.text,
    });
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
        }
      }
    },
  };
}
