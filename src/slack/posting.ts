// The one place the bot posts to Slack on its own initiative (everything beyond a respond() to the
// request being served): public posts that fall back to the person's DM when the conversation refuses
// the bot, and private notes that fall back to the DM when there is no conversation or it refuses an
// ephemeral message. Listeners and the scheduler's jobs use it alike, so every one of them treats
// Slack's refusals the same way.
//
// Given the bot's channel pacer, every chat.postMessage takes its turn in its conversation's lane, so a
// card a listener posts and a completion the scheduler posts in one channel keep Slack's pace and
// their order. Code that already holds a lane's turn (the completions coalesced in one message) posts
// without it: a turn that waited for another turn of its own lane would wait for ever.
//
// A post is never sent again when its fate is unknown (Slack did not answer in time, or answered with
// an HTTP error): the first one may have landed, and Slack offers no way to tell without reading the
// channel's history. Only a refusal of the conversation itself moves a message on to the next one:
// - a 429 says "not yet", not "not here": the post waits Retry-After and goes to the same place (the
//   channel pacer's lane waits with it, so the channel's messages keep their order);
// - a message too big for Slack (`msg_blocks_too_long`, a field over its limit) is too big everywhere:
//   its words alone go to the same place, or a short note that it was too large, and never the same
//   blocks to the DM and an ephemeral message.
import { webApi } from '@slack/bolt';
import type { KnownBlock, WebClient } from '@slack/web-api';
import { describeError, slackErrorCode } from '../errors/describe-error.js';
import { blockTextLength } from './block-kit/message-budget.js';
import { escapeMrkdwn, mrkdwn, type SlackMessage } from './block-kit/text.js';
import type { ChannelPacer } from './channel-pacer.js';

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
/** Refusals of the message itself, too big or malformed: the same words without blocks usually pass. */
const CANNOT_POST_THIS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_blocks_too_long',
  'msg_too_long',
  'invalid_attachments',
]);
/** Slack's cap on a message's `text` argument. */
const MAX_TEXT = 40_000;
/**
 * How long one post waits out 429s in all before it gives up (and is reported as not posted): Slack
 * asks for about a second per message in a channel, so a minute is a burst of 60 ahead of it.
 */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;
const MAX_RATE_LIMIT_WAITS = 5;

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

/** The refusal of a post Slack still rate limited after waiting out its Retry-After. */
const RATE_LIMITED = 'rate limited';

/** What Slack said, for a person: its error code, "rate limited", or that it did not answer. */
export function slackRefusalText(error: unknown): string {
  const code = slackErrorCode(error);
  if (code !== undefined) return code;
  const description = describeError(error);
  if (description.code === webApi.ErrorCode.RateLimitedError) return RATE_LIMITED;
  if (description.statusCode !== undefined) return `HTTP ${description.statusCode}`;
  return 'no answer';
}

/** True when Slack refused the message itself (too big, or blocks it will not take), not the place. */
function isRefusedMessage(error: unknown): boolean {
  return CANNOT_POST_THIS.has(slackErrorCode(error) ?? '');
}

/** Seconds Slack asked to wait when it rate limited a call; undefined for any other failure. */
function retryAfterSeconds(error: unknown): number | undefined {
  if (describeError(error).code !== webApi.ErrorCode.RateLimitedError) return undefined;
  const seconds = (error as { retryAfter?: unknown }).retryAfter;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : 1;
}

/**
 * Runs a call to one conversation until Slack stops rate limiting it, waiting Retry-After each time,
 * within MAX_RATE_LIMIT_WAIT_MS; past that the 429 is thrown (nothing was posted).
 */
async function waitingOutRateLimits<T>(call: () => Promise<T>): Promise<T> {
  let waited = 0;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const seconds = retryAfterSeconds(error);
      const waitMs = seconds === undefined ? undefined : Math.max(seconds * 1000, 100);
      if (
        waitMs === undefined ||
        attempt >= MAX_RATE_LIMIT_WAITS ||
        waited + waitMs > MAX_RATE_LIMIT_WAIT_MS
      ) {
        throw error;
      }
      waited += waitMs;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/**
 * Where a post that failed may still go: `unknown` when it may have landed (nothing is sent again),
 * `nowhere` when it was still rate limited after waiting or Slack takes the message nowhere (the DM is
 * no answer to either), `elsewhere` when this conversation refused it and another may take it.
 */
export function afterFailedPost(error: unknown): 'unknown' | 'nowhere' | 'elsewhere' {
  if (!provesNothingPosted(error)) return 'unknown';
  if (retryAfterSeconds(error) !== undefined || isRefusedMessage(error)) return 'nowhere';
  return 'elsewhere';
}

/** What the person reads instead of a message Slack would not take even as words alone. */
function tooLargeNotice(message: SlackMessage, refusal: string): string {
  const head = message.text.slice(0, 500).trimEnd();
  return (
    `${head}${message.text.length > 500 ? '…' : ''}\n\n⚠️ This message was too large for Slack to show ` +
    `(${refusal}), so only its beginning is here.`
  );
}

/** A message Slack refused as too big or malformed, and what was posted instead. */
interface Shortened {
  /** Slack's error for the full message. */
  refusal: string;
  blocks: number;
  /** Characters of block text (Slack's msg_blocks_too_long counts these). */
  blockText: number;
  /** `text` (the words alone) or `notice` (they were too long too: the first lines and a note). */
  posted: 'text' | 'notice';
}

async function post(web: WebClient, where: { channel: string; thread_ts?: string }, message: SlackMessage) {
  const send = (content: { blocks?: SlackMessage['blocks']; text: string }) =>
    waitingOutRateLimits(() => web.chat.postMessage({ ...where, ...content }));
  let answer: Awaited<ReturnType<WebClient['chat']['postMessage']>>;
  let shortened: Shortened | undefined;
  try {
    answer = await send({ blocks: message.blocks, text: message.text });
  } catch (error) {
    // Slack refused the message, not the place: the words alone still tell the story, here.
    if (!isRefusedMessage(error)) throw error;
    const refusal = slackErrorCode(error) ?? 'invalid_blocks';
    const size = { refusal, blocks: message.blocks.length, blockText: blockTextLength(message.blocks) };
    if (message.text.length <= MAX_TEXT) {
      try {
        answer = await send({ text: message.text });
        shortened = { ...size, posted: 'text' };
      } catch (textError) {
        if (!isRefusedMessage(textError)) throw textError;
        answer = await send({ text: tooLargeNotice(message, refusal) });
        shortened = { ...size, posted: 'notice' };
      }
    } else {
      answer = await send({ text: tooLargeNotice(message, refusal) });
      shortened = { ...size, posted: 'notice' };
    }
  }
  if (answer.ts === undefined) {
    throw new Error(`chat.postMessage to ${where.channel} answered without a message ts`);
  }
  return { channel: answer.channel ?? where.channel, ts: answer.ts, ...(shortened ? { shortened } : {}) };
}

/** `post` in its conversation's lane of the pacer, when there is one, taking turns with `sender`'s others. */
function pacedPost(
  web: WebClient,
  where: { channel: string; thread_ts?: string },
  message: SlackMessage,
  pacer: ChannelPacer | undefined,
  sender: string | undefined,
) {
  return pacer === undefined
    ? post(web, where, message)
    : pacer.message(where.channel, () => post(web, where, message), sender);
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
  pacer?: ChannelPacer,
): Promise<{ channel: string; ts: string }> {
  return pacedPost(
    web,
    { channel: target.channel, ...(target.threadTs ? { thread_ts: target.threadTs } : {}) },
    message,
    pacer,
    undefined,
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
 * otherwise in their DM with the app (a modal opened from App Home has no channel), in the DM's lane
 * of the pacer when one is given.
 */
export async function tellPrivately(
  web: WebClient,
  target: { channel?: string | undefined; userId: string },
  message: SlackMessage,
  pacer?: ChannelPacer,
): Promise<void> {
  if (target.channel && target.channel !== target.userId) {
    const { channel } = target;
    try {
      await waitingOutRateLimits(() => web.chat.postEphemeral({ channel, user: target.userId, ...message }));
      return;
    } catch (error) {
      // An ephemeral message that was refused (or still rate limited) was not shown; the DM may take it.
      if (!provesNothingPosted(error)) throw error;
    }
  }
  await pacedPost(web, { channel: target.userId }, message, pacer, target.userId);
}

/** Where a message meant for a conversation ended up. */
export type Delivery =
  /**
   * In the conversation asked for (`where: 'channel'`), or in the person's DM instead; `shortened` when
   * Slack refused the message as too big (or its blocks) and only its words, or a note, were posted.
   */
  | { landed: 'channel' | 'dm'; channel: string; ts: string; shortened?: Shortened }
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

/** Where a delivery goes, and what it already knows. */
export interface DeliveryTarget {
  channel: string | undefined;
  userId: string;
  threadTs?: string | undefined;
  /**
   * Slack's refusal of the conversation, when a post there was already refused (a message that told
   * several people at once): the chain starts at the DM, and the person is told this refusal.
   */
  refusedHere?: string;
}

/**
 * Delivers a message meant for a conversation through the whole fallback chain, and never throws for
 * Slack's sake: the thread (when `threadTs` is given), the channel, the person's DM, and last an
 * ephemeral message in the channel (a DM can be refused too, e.g. when the person's workspace forbids
 * them). It stops at the first that takes it, or at an answer that leaves its fate unknown. With the
 * pacer, each post waits its turn in its conversation's lane, taking turns with the person's others.
 */
export async function deliver(
  web: WebClient,
  target: DeliveryTarget,
  message: SlackMessage,
  pacer?: ChannelPacer,
): Promise<Delivery> {
  const { channel, userId, threadTs } = target;
  const places: Array<{ channel: string; thread_ts?: string; landed: 'channel' | 'dm' }> = [];
  if (channel !== undefined && channel !== userId && target.refusedHere === undefined) {
    if (threadTs !== undefined) places.push({ channel, thread_ts: threadTs, landed: 'channel' });
    places.push({ channel, landed: 'channel' });
  }
  places.push({ channel: userId, landed: 'dm' });

  // The person is told the first refusal: the one of the conversation they were in.
  let refusal: string | undefined = target.refusedHere;
  for (const { landed, ...where } of places) {
    try {
      return { landed, ...(await pacedPost(web, where, message, pacer, userId)) };
    } catch (error) {
      refusal ??= slackRefusalText(error);
      const next = afterFailedPost(error);
      if (next !== 'elsewhere') return { landed: next, refusal: slackRefusalText(error) };
    }
  }
  refusal ??= 'no conversation';
  if (channel === undefined || channel === userId) return { landed: 'nowhere', refusal };
  try {
    await waitingOutRateLimits(() => web.chat.postEphemeral({ channel, user: userId, ...message }));
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
  pacer?: ChannelPacer,
): Promise<{ place: FollowUpPlace; delivery: Delivery; notice: SlackMessage | undefined }> {
  const delivery = await deliver(web, target, message, pacer);
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
