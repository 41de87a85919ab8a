// How machine handlers reach Slack beyond respond(): public posts that fall back to the person's DM
// when the channel refuses the bot, private notes from places that have no response_url (modals, App
// Home), and failures turned into one sentence without ever logging a Slack request (which carries the
// bot token in its headers).
import { randomBytes } from 'node:crypto';
import { webApi } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { messageForUser } from '../errors/user-message.js';
import type { SlackMessage } from './block-kit/text.js';
import { describeError } from './error-handler.js';

/** Where a message landed: enough to update it (chat.update) or to reply in its thread. */
export interface PostedMessage {
  channel: string;
  ts: string;
  /** True when the channel refused the post and it went to the person's DM instead. */
  movedToDm: boolean;
}

/** Slack's answers for a conversation the bot cannot post in: private channels, DMs between others. */
const REFUSED_CONVERSATION = new Set(['not_in_channel', 'channel_not_found']);

/** The `error` of a Slack Web API platform error (`not_in_channel`), or undefined for anything else. */
export function slackErrorOf(error: unknown): string | undefined {
  if (!(error instanceof Error) || !('code' in error) || error.code !== webApi.ErrorCode.PlatformError) {
    return undefined;
  }
  const data = 'data' in error ? error.data : undefined;
  return typeof data === 'object' && data !== null && 'error' in data && typeof data.error === 'string'
    ? data.error
    : undefined;
}

function isSlackApiError(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}

/**
 * Posts in the channel; when the channel refuses the bot, posts in the person's DM instead (posting
 * to a user id lands in the app's DM with them) and says so in `movedToDm`.
 */
export async function postPublicly(
  web: WebClient,
  target: { channel: string; userId: string; threadTs?: string },
  message: SlackMessage,
): Promise<PostedMessage> {
  try {
    const posted = await web.chat.postMessage({
      channel: target.channel,
      ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
      ...message,
    });
    return { channel: posted.channel ?? target.channel, ts: posted.ts ?? '', movedToDm: false };
  } catch (error) {
    if (!REFUSED_CONVERSATION.has(slackErrorOf(error) ?? '') || target.channel === target.userId) throw error;
    const posted = await web.chat.postMessage({ channel: target.userId, ...message });
    return { channel: posted.channel ?? target.userId, ts: posted.ts ?? '', movedToDm: true };
  }
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
      if (!REFUSED_CONVERSATION.has(slackErrorOf(error) ?? '')) throw error;
    }
  }
  await web.chat.postMessage({ channel: target.userId, ...message });
}

/**
 * One sentence for the person about any failure. Slack API errors are logged through describeError
 * (never whole: they carry the request and its token) and reported with a reference to quote.
 */
export function failureText(error: unknown, logger: Logger): string {
  if (!isSlackApiError(error)) return messageForUser(error, logger);
  const reference = randomBytes(4).toString('hex');
  logger.error({ error: describeError(error), reference }, 'a Slack API call failed while serving a request');
  return `Slack refused one of my messages (reference ${reference}). It has been logged; please try again.`;
}
