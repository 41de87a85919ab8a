// A change a person asks for is acked at once, and Slack then shows them it was taken; the work comes
// after. A replica that dies between the two would leave them with an acked command and no word ever
// after. So a change that declares a receipt (Operation.receive) has it stored before the ack: one
// insert, waited for within Slack's budget. The feature ends it when the request reaches its intent
// (stored before the call to Paperspace) or is about to be sent without one, and the platform ends it
// once the request answered; a receipt left behind is told to its person by the feature that owns it.
import type { SlackUser } from '../store/slack-user.js';
import { msLeftOf } from './ack-deadline.js';
import { within } from './modal-submission.js';

/**
 * How long after the request arrived the ack waits for its receipt to be stored. Past it the ack goes
 * anyway (the person must not see Slack's timeout), and the receipt, stored later, is ended as usual.
 */
const RECEIPT_ACK_MS = 2000;

/** Who asked, and where: what a receipt records besides the words of the request. */
export interface ReceiptAsker {
  user: SlackUser;
  /** The conversation the command was typed or the button clicked in; undefined for App Home. */
  channelId: string | undefined;
}

export interface RequestReceipt {
  /** The receipt's id once stored; undefined when it could not be (the request goes on without one). */
  readonly stored: Promise<string | undefined>;
  /**
   * Ends it as the request is about to be sent to Paperspace with no intent to record it (unwatched).
   * Throws a sentence for the person when the recovery already told them it was not done: then nothing
   * may be sent.
   */
  beforeCall(): Promise<void>;
  /** Ends it once the request answered the person, whatever it answered. Never throws. */
  end(): Promise<void>;
}

/** Waits for the receipt to be stored, at most until the ack cannot wait any longer. */
export async function storedBeforeAck(
  receipt: RequestReceipt,
  boltContext: Record<string, unknown>,
): Promise<void> {
  await within(receipt.stored, msLeftOf(boltContext, RECEIPT_ACK_MS));
}
