// Posting for the scheduler's messages that belong in a channel (a `/ps wait` card, a share): the
// channel where the person asked, or their DM with the app when the bot may not post there.
import type { WebClient } from '@slack/web-api';
import { mrkdwn, type SlackMessage } from './block-kit/text.js';
import { describeError } from './error-handler.js';

/** Slack's answers when the bot cannot post in a conversation: private channels, DMs with others. */
const CANNOT_POST_HERE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

export interface PostedMessage {
  /** The conversation it landed in (a D… id when it went to the DM). */
  channel: string;
  ts: string;
  /** True when the channel refused the post and it went to the person's DM instead. */
  inDm: boolean;
}

/** The Slack error code of a failed Web API call (`not_in_channel`...), if it was one. */
export function slackErrorCode(error: unknown): string | undefined {
  return describeError(error).slackError;
}

export async function postWithDmFallback(
  slack: WebClient,
  target: { channel: string; userId: string },
  message: SlackMessage,
): Promise<PostedMessage> {
  try {
    return { ...(await post(slack, target.channel, message)), inDm: false };
  } catch (error) {
    const code = slackErrorCode(error);
    if (code === undefined || !CANNOT_POST_HERE.has(code)) throw error;
  }
  // Posting to a user id opens (or reuses) the app's DM with them; no im:write scope needed.
  return { ...(await post(slack, target.userId, message)), inDm: true };
}

async function post(slack: WebClient, channel: string, message: SlackMessage) {
  const answer = await slack.chat.postMessage({ channel, blocks: message.blocks, text: message.text });
  if (answer.ts === undefined)
    throw new Error(`chat.postMessage to ${channel} answered without a message ts`);
  return { channel: answer.channel ?? channel, ts: answer.ts };
}

/** Told to the person (ephemerally) when their post went to the DM: `what` is "the card", "the share". */
export function postedInDmNotice(what: string): SlackMessage {
  const text =
    `I cannot post in this conversation (invite me to the channel to change that), so I sent ${what} ` +
    'to our direct messages instead.';
  return { blocks: [{ type: 'section', text: mrkdwn(text) }], text };
}
