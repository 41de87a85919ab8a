// What the person reads about a post that did not go as meant: a message too large for Slack, a card
// that went to their DM instead, or one that landed nowhere in public (then with a private copy).
// Pure functions from what happened to a message, kept apart from the calls to Slack (posting.ts).

import type { KnownBlock } from '@slack/web-api';
import { plainMessage } from '../block-kit/messages.js';
import { escapeMrkdwn, mrkdwn, type SlackMessage } from '../block-kit/text.js';
import type { Delivery } from './delivery.js';
import { RATE_LIMITED } from './slack-refusals.js';

/** What the person reads instead of a message Slack would not take even as words alone. */
export function tooLargeNotice(message: SlackMessage, refusal: string): string {
  const head = message.text.slice(0, 500).trimEnd();
  return (
    `${head}${message.text.length > 500 ? '…' : ''}\n\n⚠️ This message was too large for Slack to show ` +
    `(${refusal}), so only its beginning is here.`
  );
}

/**
 * Told to the person privately when their post went to the DM: `what` is "the card of gpu-1", "the
 * share" (escaped here: machine names come from users). `refusal` is RATE_LIMITED when the
 * conversation would have taken it, only not yet.
 */
export function postedInDmNotice(what: string, refusal?: typeof RATE_LIMITED): SlackMessage {
  const subject = escapeMrkdwn(what);
  const text =
    refusal === RATE_LIMITED
      ? `📬 Slack kept asking me to wait before posting in this conversation (${RATE_LIMITED}), so ${subject} ` +
        'is in our direct messages instead.'
      : `📬 I cannot post in this conversation (I am not a member, or it is private), so ${subject} ` +
        'is in our direct messages. Invite me to the channel (`/invite`) to post here next time.';
  return plainMessage(text);
}

/**
 * The message as it goes to the person's DM when `channel` still rate limited it after its
 * Retry-After: headed by a line saying where it could not be posted, so the DM explains itself.
 */
export function notPostedThereYet(message: SlackMessage, channel: string): SlackMessage {
  const note =
    `⚠️ Slack kept asking me to wait before posting this in <#${channel}> (${RATE_LIMITED}), ` +
    'so it is here instead.';
  return {
    blocks: [{ type: 'context', elements: [mrkdwn(note)] }, ...message.blocks],
    text: `${note}\n${message.text}`,
  };
}

/** Told to the person when an announcement did not land in public: what Slack did, in one sentence. */
export function notPostedNotice(what: string, delivery: Delivery): SlackMessage | undefined {
  const subject = escapeMrkdwn(what);
  let text: string;
  switch (delivery.landed) {
    case 'channel':
    case 'dm':
      return undefined;
    case 'ephemeral':
      text = `⚠️ Slack refused ${subject} in this conversation and in our DM (${delivery.refusal}), so only you saw it.`;
      break;
    case 'nowhere':
      text = `⚠️ Slack refused ${subject} everywhere I tried (${delivery.refusal}).`;
      break;
    case 'unknown':
      text =
        `⚠️ Slack did not confirm ${subject} (${delivery.refusal}), so it may be missing; ` +
        'I did not post it again, to avoid a duplicate.';
      break;
  }
  return plainMessage(text);
}

/**
 * What the person is told when an announcement did not land in public: the notice, then the message
 * itself (they saw it nowhere else), then what follows (`followUp`: "I will tell you when ...").
 */
export function withPrivateCopy(
  notice: SlackMessage,
  message: SlackMessage,
  followUp?: string,
): SlackMessage {
  const follow: KnownBlock[] =
    followUp === undefined ? [] : [{ type: 'context', elements: [mrkdwn(followUp)] }];
  return {
    blocks: [...notice.blocks, ...message.blocks, ...follow],
    text: followUp === undefined ? notice.text : `${notice.text} ${followUp}`,
  };
}
