// What became of a message the bot posted through the fallback chain (posting.ts's deliver): where it
// landed, or why nowhere. Its own file because the notices that tell the person about it
// (notices.ts) read it too, and import nothing of the posting itself.
import { RATE_LIMITED } from './slack-refusals.js';

/** A message Slack refused as too big or malformed, and what was posted instead. */
export interface Shortened {
  /** Slack's error for the full message. */
  refusal: string;
  blocks: number;
  /** Characters of block text (Slack's msg_blocks_too_long counts these). */
  blockText: number;
  /** `text` (the words alone) or `notice` (they were too long too: the first lines and a note). */
  posted: 'text' | 'notice';
}

/** Where a message meant for a conversation ended up. */
export type Delivery =
  /**
   * In the conversation asked for (`where: 'channel'`), or in the person's DM instead; `shortened` when
   * Slack refused the message as too big (or its blocks) and only its words, or a note, were posted.
   */
  | {
      landed: 'channel' | 'dm';
      channel: string;
      ts: string;
      shortened?: Shortened;
      /** In the DM instead of the conversation asked for, because that one still rate limited it. */
      refusal?: typeof RATE_LIMITED;
    }
  /** Only the person saw it, ephemerally in the conversation: it cannot be updated or replied to. */
  | { landed: 'ephemeral'; channel: string; refusal: string }
  /** Every conversation refused it. */
  | { landed: 'nowhere'; refusal: string }
  /** Slack did not answer: the message may be there or not, and was not sent again. */
  | { landed: 'unknown'; refusal: string };

/** True when nothing was posted only because Slack still rate limited the post: "not yet", not "not here". */
export function stillRateLimited(delivery: Delivery): boolean {
  return delivery.landed === 'nowhere' && delivery.refusal === RATE_LIMITED;
}
