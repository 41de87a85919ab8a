// The receipt of a start, stop or restart typed in Slack (slack/request-receipt.ts), written to the
// store with what was asked in words: the operation and the machine as the person typed it, which is
// all a replica that finds it left behind can name (watches/receipt-recovery.ts tells them).
import { randomUUID } from 'node:crypto';
import { describeError } from '../../errors/describe-error.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import type { ReceiptAsker, RequestReceipt } from '../../slack/request-receipt.js';
import { ReceiptTakenError } from '../../store/received-requests.js';
import type { FeatureDeps } from '../feature-deps.js';

export type ReceiptDeps = FeatureDeps<'receivedRequests', 'now'>;

/** What was asked, in words. */
export interface AskedChange {
  operation: string;
  /** The machine as the person typed it. */
  subject: string;
}

/**
 * Said when a request goes on after the recovery told its person it was not done (the request took
 * longer than the recovery's grace): it stops, so that what they were told stays true.
 */
export function alreadyToldNotDone(change: AskedChange): UserFacingError {
  return new UserFacingError(
    `I stopped your ${change.operation} of *${escapeMrkdwn(change.subject)}*: it took me so long that I had already told ` +
      'you it was not done, so nothing was sent to Paperspace. Ask again if you still want it.',
  );
}

/** Stores the receipt of `change` (the insert starts now; `stored` says when it answered). */
export function receiveRequest(deps: ReceiptDeps, asker: ReceiptAsker, change: AskedChange): RequestReceipt {
  const id = randomUUID();
  const stored = deps.store.receivedRequests
    .receive({
      id,
      teamId: asker.user.teamId,
      userId: asker.user.userId,
      channel: asker.channelId ?? null,
      operation: change.operation,
      subject: change.subject,
      receivedAt: deps.now(),
    })
    .then(
      () => id,
      (error: unknown) => {
        // The request goes on: it answers as it always did, only a replica lost now would leave no trace.
        deps.logger.warn({ error: describeError(error) }, 'could not store the receipt of a request');
        return undefined;
      },
    );
  return {
    stored,
    async beforeCall() {
      const storedId = await stored;
      if (storedId === undefined) return;
      try {
        await deps.store.receivedRequests.end(storedId);
      } catch (error) {
        throw error instanceof ReceiptTakenError ? alreadyToldNotDone(change) : error;
      }
    },
    async end() {
      const storedId = await stored;
      if (storedId === undefined) return;
      await deps.store.receivedRequests.end(storedId).catch((error: unknown) => {
        // Taken by the recovery, which tells the person; or left for it, if the database is away.
        if (error instanceof ReceiptTakenError) return;
        deps.logger.warn({ error: describeError(error) }, 'could not end the receipt of a request');
      });
    },
  };
}
