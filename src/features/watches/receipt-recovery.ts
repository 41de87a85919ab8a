// Telling the people whose acked request no replica carried to its intent. A start, stop or restart
// typed in Slack is stored as a receipt before its ack (machines/request-receipts.ts), and the receipt
// ends in the same transaction as the intent is stored, before the call to Paperspace. A receipt left
// past RECEIPT_GRACE_MS therefore belongs to a request whose replica died (or lost its database)
// before the call: Paperspace was never asked. Any replica's tick takes such a receipt (once across
// replicas) and tells its person so, naming the machine, with the command to ask again. The request
// itself is never sent again on its own: the person decides whether they still want it.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { WorkspaceSlack } from '../../scheduler/job.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import { tellPrivately } from '../../slack/posting.js';
import type { ReceivedRequest } from '../../store/received-requests.js';
import type { Store } from '../../store/store.js';

/**
 * How old a receipt must be before its person is told. A live request reaches its intent after a few
 * reads of Paperspace (the machine, a budget): this is far longer than those take, so a slow request is
 * not told "not done" while it is still on its way (if it were, it would stop instead of sending).
 */
export const RECEIPT_GRACE_MS = 2 * 60_000;
/** A receipt whose person cannot be told for this long (the workspace is gone) is forgotten. */
const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/** Receipts settled per tick; the rest come next tick. */
const RECEIPTS_PER_TICK = 50;

/** What the person is told: the machine as they typed it, that nothing was done, and how to ask again. */
function notReachedMessage(receipt: Pick<ReceivedRequest, 'operation' | 'subject'>): SlackMessage {
  const subject = escapeMrkdwn(receipt.subject);
  if (receipt.operation === 'create') {
    return plainMessage(
      `⚠️ I restarted before your create of *${subject}* reached Paperspace, so no machine was made. ` +
        `Type your \`${SLASH_COMMAND} create\` again, or \`${SLASH_COMMAND} create\` alone for the form.`,
    );
  }
  return plainMessage(
    `⚠️ I restarted before your ${receipt.operation} of *${subject}* reached Paperspace, so nothing was ` +
      `done to it. \`${SLASH_COMMAND} ${receipt.operation} ${subject}\` asks again.`,
  );
}

export interface ReceiptRecoveryDeps {
  store: Pick<Store, 'receivedRequests'>;
  slack: WorkspaceSlack;
  pacer: ChannelPacer;
  logger: Logger;
  now: () => number;
}

/** One tick's recovery: tells the people of the receipts past their grace that this replica takes. */
export function createReceiptRecovery(deps: ReceiptRecoveryDeps): { tick(): Promise<void> } {
  const { store, logger } = deps;

  const tell = async (receipt: ReceivedRequest) => {
    const now = deps.now();
    if (!(await store.receivedRequests.claim(receipt.id, receipt.pendingSince, now))) return;
    try {
      const web = await deps.slack(receipt.teamId);
      await tellPrivately(
        web,
        { channel: receipt.channel ?? undefined, userId: receipt.userId },
        notReachedMessage(receipt),
        deps.pacer,
      );
    } catch (error) {
      if (now - receipt.receivedAt < GIVE_UP_AFTER_MS) {
        // Taken until the next grace: told then.
        logger.warn(
          { receiptId: receipt.id, error: describeError(error) },
          'could not tell of a lost request yet',
        );
        return;
      }
      logger.error(
        { receiptId: receipt.id, error: describeError(error) },
        'gave up telling of a lost request',
      );
    }
    await store.receivedRequests.forget(receipt.id);
    logger.info(
      { receiptId: receipt.id, user: receipt.userId },
      'told a person their request was lost before Paperspace',
    );
  };

  return {
    async tick() {
      const due = await store.receivedRequests.pending(deps.now() - RECEIPT_GRACE_MS, RECEIPTS_PER_TICK);
      // One at a time: receipts are left only by a replica lost mid-request, a few at most.
      for (const receipt of due) {
        await tell(receipt).catch((error: unknown) => {
          logger.error(
            { receiptId: receipt.id, error: describeError(error) },
            'could not settle a lost request',
          );
        });
      }
    },
  };
}
