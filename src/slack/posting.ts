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
//   channel pacer's lane waits with it, so the channel's messages keep their order); a conversation
//   still rate limiting it after a minute sends it to the person's DM, headed by a line saying so;
// - a message too big for Slack (`msg_blocks_too_long`, a field over its limit) is too big everywhere:
//   its words alone go to the same place, or a short note that it was too large, and never the same
//   blocks to the DM and an ephemeral message.
//
// The pieces this module is made of are under posting/: how Slack's refusals are sorted
// (slack-refusals.ts), how a 429 is waited out (rate-limit-waits.ts), what became of a delivery
// (delivery.ts) and what the person is told about it (notices.ts).
import type { WebClient } from '@slack/web-api';
import { slackErrorCode } from '../errors/describe-error.js';
import { blockTextLength } from './block-kit/message-budget.js';
import type { SlackMessage } from './block-kit/text.js';
import type { ChannelPacer } from './channel-pacer.js';
import { type Delivery, type Shortened, stillRateLimited } from './posting/delivery.js';
import {
  notPostedNotice,
  notPostedThereYet,
  postedInDmNotice,
  tooLargeNotice,
  withPrivateCopy,
} from './posting/notices.js';
import { rateLimitDeadline, retryAfterSeconds, waitingOutRateLimits } from './posting/rate-limit-waits.js';
import {
  afterFailedPost,
  isRefusedConversation,
  isRefusedMessage,
  provesNothingPosted,
  RATE_LIMITED,
  slackRefusalText,
} from './posting/slack-refusals.js';

// The features post through this module alone; these are its answers about a post and its notices.
export {
  afterFailedPost,
  type Delivery,
  isRefusedConversation,
  provesNothingPosted,
  RATE_LIMITED,
  slackRefusalText,
  stillRateLimited,
  withPrivateCopy,
};

/** Slack's cap on a message's `text` argument. */
const MAX_TEXT = 40_000;

async function post(
  web: WebClient,
  where: { channel: string; thread_ts?: string },
  message: SlackMessage,
  giveUpAt: number = rateLimitDeadline(),
) {
  const send = (content: { blocks?: SlackMessage['blocks']; text: string }) =>
    waitingOutRateLimits(() => web.chat.postMessage({ ...where, ...content }), giveUpAt);
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
  if (pacer === undefined) return post(web, where, message);
  return pacer.message(
    where.channel,
    (refusingSince) => post(web, where, message, rateLimitDeadline(refusingSince)),
    sender,
  );
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
  /**
   * True when the caller tries the same conversation again later if Slack still rate limits it (a
   * completion's next turn): the delivery then reports it rate limited instead of going to the DM.
   */
  retriesLater?: boolean;
}

/**
 * Delivers a message meant for a conversation through the whole fallback chain, and never throws for
 * Slack's sake: the thread (when `threadTs` is given), the channel, the person's DM, and last an
 * ephemeral message in the channel (a DM can be refused too, e.g. when the person's workspace forbids
 * them). It stops at the first that takes it, or at an answer that leaves its fate unknown. With the
 * pacer, each post waits its turn in its conversation's lane, taking turns with the person's others.
 *
 * A conversation Slack still rate limits after its Retry-After was waited out is "not yet", not "not
 * here", yet the message cannot wait for ever: unless the caller `retriesLater`, it goes to the
 * person's DM, headed by a line that says it could not be posted where it was meant, so a post is never
 * dropped without a word.
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
  for (let index = 0; index < places.length; index += 1) {
    const { landed, ...where } = places[index] as (typeof places)[number];
    const rateLimitedThere = refusal === RATE_LIMITED && landed === 'dm' && channel !== undefined;
    const content = rateLimitedThere ? notPostedThereYet(message, channel) : message;
    try {
      const posted = await pacedPost(web, where, content, pacer, userId);
      return { landed, ...posted, ...(rateLimitedThere ? { refusal: RATE_LIMITED } : {}) };
    } catch (error) {
      refusal ??= slackRefusalText(error);
      const next = afterFailedPost(error);
      const stillLimited = next === 'nowhere' && retryAfterSeconds(error) !== undefined;
      if (stillLimited && landed === 'channel' && !target.retriesLater) {
        // The thread and its channel share Slack's pace: the DM is the next place that may take it.
        refusal = RATE_LIMITED;
        index = places.length - 2;
        continue;
      }
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
      // A card meant for the DM (a Slackbot call has no other conversation) landed where it was meant.
      notice:
        delivery.landed === 'dm' && target.channel !== target.userId
          ? postedInDmNotice(what, delivery.refusal)
          : undefined,
    };
  }
  return {
    place: { channel: target.channel ?? target.userId, ts: undefined },
    delivery,
    notice: notPostedNotice(what, delivery),
  };
}
