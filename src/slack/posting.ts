// The one place the bot posts to Slack on its own initiative (everything beyond a respond() to the
// request being served): public posts that fall back to the person's DM when the conversation refuses
// the bot, and private notes that fall back to the DM when there is no conversation or it refuses an
// ephemeral message. Listeners and the scheduler's jobs use it alike, so every one of them treats
// Slack's refusals the same way.
import type { WebClient } from '@slack/web-api';
import { slackErrorCode } from '../errors/describe-error.js';
import { escapeMrkdwn, mrkdwn, type SlackMessage } from './block-kit/text.js';

/** Where a message landed: enough to update it (chat.update) or to reply in its thread. */
export interface PostedMessage {
  /** The conversation it landed in (a D… id when it went to the DM). */
  channel: string;
  ts: string;
  /** True when the conversation refused the post and it went to the person's DM instead. */
  movedToDm: boolean;
}

/**
 * Slack's answers when the bot may not post in a conversation: a private channel it was not invited
 * to, a DM between other people, an archived channel, or a workspace rule against apps posting there.
 */
const CANNOT_POST_HERE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

/** True when Slack refused a post because of where it was going, so another conversation may take it. */
export function isRefusedConversation(error: unknown): boolean {
  return CANNOT_POST_HERE.has(slackErrorCode(error) ?? '');
}

/**
 * Posts in the channel (in a thread when `threadTs` is given); when the channel refuses the bot,
 * posts in the person's DM instead (posting to a user id lands in the app's DM with them, no im:write
 * scope needed) and says so in `movedToDm`.
 */
export async function postPublicly(
  web: WebClient,
  target: { channel: string; userId: string; threadTs?: string },
  message: SlackMessage,
): Promise<PostedMessage> {
  try {
    const thread = target.threadTs ? { thread_ts: target.threadTs } : {};
    return { ...(await post(web, { channel: target.channel, ...thread }, message)), movedToDm: false };
  } catch (error) {
    if (!isRefusedConversation(error) || target.channel === target.userId) throw error;
  }
  return { ...(await post(web, { channel: target.userId }, message)), movedToDm: true };
}

async function post(web: WebClient, where: { channel: string; thread_ts?: string }, message: SlackMessage) {
  const answer = await web.chat.postMessage({ ...where, blocks: message.blocks, text: message.text });
  if (answer.ts === undefined) {
    throw new Error(`chat.postMessage to ${where.channel} answered without a message ts`);
  }
  return { channel: answer.channel ?? where.channel, ts: answer.ts };
}

/**
 * A message only `userId` sees: ephemeral in `channel` when there is one the bot may post in,
 * otherwise in their DM with the app (a modal opened from App Home has no channel).
 */
export async function tellPrivately(
  web: WebClient,
  target: { channel?: string | undefined; userId: string },
  message: SlackMessage,
): Promise<void> {
  if (target.channel) {
    try {
      await web.chat.postEphemeral({ channel: target.channel, user: target.userId, ...message });
      return;
    } catch (error) {
      if (!isRefusedConversation(error)) throw error;
    }
  }
  await web.chat.postMessage({ channel: target.userId, ...message });
}

/**
 * Told to the person privately when their post went to the DM: `what` is "the card of gpu-1", "the
 * share" (escaped here: machine names come from users).
 */
export function postedInDmNotice(what: string): SlackMessage {
  const text =
    `📬 I cannot post in this conversation (I am not a member, or it is private), so ${escapeMrkdwn(what)} ` +
    'is in our direct messages. Invite me to the channel (`/invite`) to post here next time.';
  return { blocks: [{ type: 'section', text: mrkdwn(text) }], text };
}
