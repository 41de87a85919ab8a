// The one place the bot posts to Slack on its own initiative (everything beyond a respond() to the
// request being served): public posts that fall back to the person's DM when the conversation refuses
// the bot, and private notes that fall back to the DM when there is no conversation or it refuses an
// ephemeral message. Listeners and the scheduler's jobs use it alike, so every one of them treats
// Slack's refusals the same way.
//
// A post is never sent again when its fate is unknown (Slack did not answer in time, or answered with
// an HTTP error): the first one may have landed, and Slack offers no way to tell without reading the
// channel's history. Only answers that prove nothing was posted (`ok: false`, or a 429) move a message
// on to the next conversation.
import { webApi } from '@slack/bolt';
import type { KnownBlock, WebClient } from '@slack/web-api';
import { describeError, slackErrorCode } from '../errors/describe-error.js';
import { escapeMrkdwn, mrkdwn, type SlackMessage } from './block-kit/text.js';

/**
 * Slack's answers when the bot may not post in a conversation: a private channel it was not invited
 * to, a DM between other people, an archived or deleted channel, a workspace rule against apps posting
 * there (#general, read-only and thread-only channels), or a person who is not in the channel (for an
 * ephemeral message).
 */
const CANNOT_POST_HERE = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'posting_to_general_channel_denied',
  'team_access_not_granted',
  'user_not_in_channel',
  'cannot_reply_to_message',
]);
/** Refusals of the message itself: the same words without blocks usually pass. */
const CANNOT_POST_THIS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_too_long',
  'invalid_attachments',
]);

/** True when Slack refused a post because of where it was going, so another conversation may take it. */
export function isRefusedConversation(error: unknown): boolean {
  return CANNOT_POST_HERE.has(slackErrorCode(error) ?? '');
}

/**
 * Slack's own errors after which, its documentation says, some of the operation may have happened.
 */
const FATE_UNKNOWN = new Set(['internal_error', 'fatal_error', 'request_timeout', 'service_unavailable']);

/**
 * True when Slack's answer proves the call did nothing: it refused it (`ok: false` with a reason), or
 * rate limited it. A timeout, a dropped connection, an HTTP 5xx or Slack's `internal_error` leave the
 * fate of a post unknown.
 */
export function provesNothingPosted(error: unknown): boolean {
  const code = slackErrorCode(error);
  if (code !== undefined) return !FATE_UNKNOWN.has(code);
  return describeError(error).code === webApi.ErrorCode.RateLimitedError;
}

/** What Slack said, for a person: its error code, "rate limited", or that it did not answer. */
export function slackRefusalText(error: unknown): string {
  const code = slackErrorCode(error);
  if (code !== undefined) return code;
  const description = describeError(error);
  if (description.code === webApi.ErrorCode.RateLimitedError) return 'rate limited';
  if (description.statusCode !== undefined) return `HTTP ${description.statusCode}`;
  return 'no answer';
}

async function post(web: WebClient, where: { channel: string; thread_ts?: string }, message: SlackMessage) {
  let answer: Awaited<ReturnType<WebClient['chat']['postMessage']>>;
  try {
    answer = await web.chat.postMessage({ ...where, blocks: message.blocks, text: message.text });
  } catch (error) {
    // Slack refused the blocks (too many, or a field too long): the words alone still tell the story.
    if (!CANNOT_POST_THIS.has(slackErrorCode(error) ?? '')) throw error;
    answer = await web.chat.postMessage({ ...where, text: message.text });
  }
  if (answer.ts === undefined) {
    throw new Error(`chat.postMessage to ${where.channel} answered without a message ts`);
  }
  return { channel: answer.channel ?? where.channel, ts: answer.ts };
}

/**
 * Posts in this conversation and no other (a user id posts in the app's DM with them), in a thread
 * when `threadTs` is given: for a message whose place is its point, such as a request in its
 * approvers' channel or a card in a request's thread, where the DM of whoever caused it is no
 * substitute. A refusal is thrown to the caller.
 */
export async function postIn(
  web: WebClient,
  target: { channel: string; threadTs?: string },
  message: SlackMessage,
): Promise<{ channel: string; ts: string }> {
  return post(
    web,
    { channel: target.channel, ...(target.threadTs ? { thread_ts: target.threadTs } : {}) },
    message,
  );
}

/**
 * Replaces a message the bot posted, blocks and text. No words-alone retry as for a post: an update
 * without blocks keeps the old ones, buttons included.
 */
export async function updateMessage(
  web: WebClient,
  posted: { channel: string; ts: string },
  message: SlackMessage,
): Promise<void> {
  await web.chat.update({
    channel: posted.channel,
    ts: posted.ts,
    blocks: message.blocks,
    text: message.text,
  });
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
  if (target.channel && target.channel !== target.userId) {
    try {
      await web.chat.postEphemeral({ channel: target.channel, user: target.userId, ...message });
      return;
    } catch (error) {
      // An ephemeral message that was refused (or rate limited) was not shown; the DM may take it.
      if (!provesNothingPosted(error)) throw error;
    }
  }
  await post(web, { channel: target.userId }, message);
}

/** Where a message meant for a conversation ended up. */
export type Delivery =
  /** In the conversation asked for (`where: 'channel'`), or in the person's DM instead. */
  | { landed: 'channel' | 'dm'; channel: string; ts: string }
  /** Only the person saw it, ephemerally in the conversation: it cannot be updated or replied to. */
  | { landed: 'ephemeral'; channel: string; refusal: string }
  /** Every conversation refused it. */
  | { landed: 'nowhere'; refusal: string }
  /** Slack did not answer: the message may be there or not, and was not sent again. */
  | { landed: 'unknown'; refusal: string };

/**
 * Delivers a message meant for a conversation through the whole fallback chain, and never throws for
 * Slack's sake: the thread (when `threadTs` is given), the channel, the person's DM, and last an
 * ephemeral message in the channel (a DM can be refused too, e.g. when the person's workspace forbids
 * them). It stops at the first that takes it, or at an answer that leaves its fate unknown.
 */
export async function deliver(
  web: WebClient,
  target: { channel: string | undefined; userId: string; threadTs?: string | undefined },
  message: SlackMessage,
): Promise<Delivery> {
  const { channel, userId, threadTs } = target;
  const places: Array<{ channel: string; thread_ts?: string; landed: 'channel' | 'dm' }> = [];
  if (channel !== undefined && channel !== userId) {
    if (threadTs !== undefined) places.push({ channel, thread_ts: threadTs, landed: 'channel' });
    places.push({ channel, landed: 'channel' });
  }
  places.push({ channel: userId, landed: 'dm' });

  // The person is told the first refusal: the one of the conversation they were in.
  let refusal: string | undefined;
  for (const { landed, ...where } of places) {
    try {
      return { landed, ...(await post(web, where, message)) };
    } catch (error) {
      refusal ??= slackRefusalText(error);
      if (!provesNothingPosted(error)) return { landed: 'unknown', refusal: slackRefusalText(error) };
    }
  }
  refusal ??= 'no conversation';
  if (channel === undefined || channel === userId) return { landed: 'nowhere', refusal };
  try {
    await web.chat.postEphemeral({ channel, user: userId, ...message });
    return { landed: 'ephemeral', channel, refusal };
  } catch (error) {
    return provesNothingPosted(error) ? { landed: 'nowhere', refusal } : { landed: 'unknown', refusal };
  }
}

/**
 * Told to the person privately when their post went to the DM: `what` is "the card of gpu-1", "the
 * share" (escaped here: machine names come from users).
 */
function postedInDmNotice(what: string): SlackMessage {
  const text =
    `📬 I cannot post in this conversation (I am not a member, or it is private), so ${escapeMrkdwn(what)} ` +
    'is in our direct messages. Invite me to the channel (`/invite`) to post here next time.';
  return { blocks: [{ type: 'section', text: mrkdwn(text) }], text };
}

/** Where the follow-ups of an announcement go: its conversation, and its ts when it can be updated. */
export interface FollowUpPlace {
  channel: string;
  ts: string | undefined;
}

/**
 * Delivers an announcement (a card) through the fallback chain and says where its follow-ups go: the
 * card itself when it landed, otherwise the conversation it was meant for (the completion then takes
 * the fallback chain again). `notice` is what the person must be told privately, if anything.
 */
export async function announce(
  web: WebClient,
  target: { channel: string | undefined; userId: string; threadTs?: string | undefined },
  message: SlackMessage,
  what: string,
): Promise<{ place: FollowUpPlace; delivery: Delivery; notice: SlackMessage | undefined }> {
  const delivery = await deliver(web, target, message);
  if (delivery.landed === 'channel' || delivery.landed === 'dm') {
    return {
      place: { channel: delivery.channel, ts: delivery.ts },
      delivery,
      notice: delivery.landed === 'dm' ? postedInDmNotice(what) : undefined,
    };
  }
  return {
    place: { channel: target.channel ?? target.userId, ts: undefined },
    delivery,
    notice: notPostedNotice(what, delivery),
  };
}

/** Told to the person when an announcement did not land in public: what Slack did, in one sentence. */
function notPostedNotice(what: string, delivery: Delivery): SlackMessage | undefined {
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
  return { blocks: [{ type: 'section', text: mrkdwn(text) }], text };
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
