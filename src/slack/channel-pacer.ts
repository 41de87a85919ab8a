// Paces what the bot posts to Slack's limits, so that a burst drains at Slack's pace instead of into
// 429s, and never holds up the scheduler. The bot has one (bot.ts): the cards and posts its listeners
// make and the completions, reminders and digests its jobs post share it, so a channel has one lane
// whoever posts there, and a card's completion comes after the card.
// - messages: chat.postMessage allows about one message per second per channel. Each channel has a
//   lane that takes its senders (the people the messages are for; all completions waiting for a
//   channel are one sender, coalesced into one message) in turns, one message each, so one sender's
//   burst does not put another's one far back; each sender's messages keep their order, and each
//   message waits until a second after the previous one in its channel started. A `send` must not
//   wait for another message of its own channel through the pacer: its lane is busy with it.
// - card updates: chat.update is Tier 3, about 50 a minute for the whole workspace, far fewer than a
//   burst of 1,000 finishes asks for. A card shows its latest state, so an update that cannot go at
//   once waits in a queue where a newer update of the same card replaces it, and the caller goes on:
//   a tick never waits for the update budget, and the reply (what the person waits for) is never
//   queued behind card updates.
// - replicas: Slack's pace counts the app's posts in a channel and its updates in a workspace, whichever
//   replica sends them. Given the store's slots (store/channel-post-slots.ts), each message claims its
//   moment there, and so does each card update (one row for the app's update budget), so the deployment
//   as a whole keeps one message a second per channel and Tier 3's updates; without them (or when the
//   store does not answer) the replica keeps the pace alone.
// A 429 Slack sends anyway fails that one call at once (app.ts rejects rate-limited calls rather than
// pausing the shared client, so interactive calls never wait behind background traffic); the post
// waits Retry-After and goes to the same channel (posting.ts), and the lane waits with it, so the
// channel's messages still go out one after another, in order. The waiting is bounded per channel, not
// per post: each post's minute of 429s counts from when it was asked for or the channel last took a
// message, so posts queued behind one that Slack kept refusing give up (to the person's DM) with it
// rather than a minute each, one after another.
import { SLACK_PACING, type SlackPacing } from '../config.js';

export interface ChannelPacer {
  /**
   * Runs `send` (a chat.postMessage) in `channel` at Slack's pace: after the earlier messages of the
   * same `sender`, and taking turns with the other senders waiting in the channel. `send` posts
   * directly, never through the pacer in the same channel (that turn would wait for this one). It is
   * given the moment from which the channel may have been refusing this message: when it was asked
   * for, or the last message that went through in the channel since, whichever is later (posting.ts
   * counts its minute of 429s from there, so a post queued behind one Slack kept refusing is not
   * given a minute of its own on top).
   */
  message<T>(channel: string, send: (refusingSince: number) => Promise<T>, sender?: string): Promise<T>;
  /**
   * Sends an update of `card` (a chat.update that handles its own failures) at once when the budget
   * allows, and then resolves once it is sent. Otherwise queues it, replacing an older update of the
   * same card still waiting, and resolves at once: it goes out as the budget refills.
   */
  update(card: string, send: () => Promise<void>): Promise<void>;
}

export interface ChannelPacerDeps {
  /**
   * SLACK_PACING by default; null spaces nothing out (a Slack stand-in that imposes no limits, or a test
   * clock that real waits would not move), yet a channel's messages still go out one at a time, in order.
   */
  pacing?: SlackPacing | null;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Claims the next post in a channel for the whole deployment, at `at` or later (the store's
   * postSlots.claim): answers the moment this one may go.
   */
  claimSlot?: (channel: string, at: number, spacingMs: number) => Promise<number>;
  /** Told when a slot could not be claimed and the replica kept the pace alone for that message. */
  slotUnclaimed?: (channel: string, error: unknown) => void;
  /**
   * Claims the deployment's next chat.update at `at` or later, `spacingMs` after the one before it (the
   * store's postSlots.claim under the app's update key): answers the moment from which it may go.
   */
  claimUpdate?: (at: number, spacingMs: number) => Promise<number>;
  /** Told when an update could not be claimed and the replica kept its own budget for it. */
  updateUnclaimed?: (error: unknown) => void;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createChannelPacer(deps: ChannelPacerDeps = {}): ChannelPacer {
  const unpaced = deps.pacing === null;
  const pacing = deps.pacing ?? (unpaced ? { ...SLACK_PACING, messageSpacingMs: 0 } : SLACK_PACING);
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? realSleep;

  /**
   * Each busy channel's waiting messages, by sender, in the order their turns come: the sender served
   * goes to the back if it has more. A channel is here only while its lane is being drained.
   */
  const lanes = new Map<string, Map<string, (() => Promise<void>)[]>>();
  const lastMessageAt = new Map<string, number>();
  /** When a message last went through in each channel (one number per channel, as lastMessageAt). */
  const lastSentAt = new Map<string, number>();

  const claimSlot = unpaced ? undefined : deps.claimSlot;
  /** The deployment's slot for this replica's next message in `channel`, no earlier than its own pace. */
  const sharedSlot = async (
    claim: NonNullable<ChannelPacerDeps['claimSlot']>,
    channel: string,
    alone: number,
  ) => {
    try {
      return await claim(channel, Math.max(now(), alone), pacing.messageSpacingMs);
    } catch (error) {
      // A store that does not answer must not stop the bot posting: this message keeps this replica's pace.
      deps.slotUnclaimed?.(channel, error);
      return alone;
    }
  };

  const drainLane = async (channel: string, senders: Map<string, (() => Promise<void>)[]>) => {
    while (senders.size > 0) {
      const alone = (lastMessageAt.get(channel) ?? Number.NEGATIVE_INFINITY) + pacing.messageSpacingMs;
      // Alone, the first message in an idle channel goes at once, without a pause for a claim.
      const slot = claimSlot === undefined ? alone : await sharedSlot(claimSlot, channel, alone);
      // The turn is chosen after the wait, so a sender who arrived during it is in this round.
      const wait = slot - now();
      if (wait > 0) await sleep(wait);
      const turn = senders.entries().next();
      if (turn.done) break;
      const [sender, waiting] = turn.value;
      const send = waiting.shift();
      senders.delete(sender);
      if (waiting.length > 0) senders.set(sender, waiting);
      // One number per channel the bot has posted in since it started: small even in thousands.
      lastMessageAt.set(channel, now());
      await send?.();
    }
    lanes.delete(channel);
  };

  /**
   * When this replica's next chat.update may go by its own budget: a token bucket refilled
   * continuously at updatesPerMinute, where each update reserves its token (the bucket may go below
   * zero) and goes once the bucket is back at zero. The drain asks for one moment at a time.
   */
  const perMs = pacing.updatesPerMinute / 60_000;
  let updateTokens = pacing.updateBurst;
  let tokensAt = now();
  const ownUpdateMoment = (): number => {
    const at = now();
    updateTokens = Math.min(pacing.updateBurst, updateTokens + (at - tokensAt) * perMs);
    tokensAt = at;
    updateTokens -= 1;
    return updateTokens >= 0 ? at : at + Math.ceil(-updateTokens / perMs);
  };
  const claimUpdate = unpaced ? undefined : deps.claimUpdate;
  // The same bucket kept in the store for the whole deployment: `next` is the moment the bucket's
  // reservations reach (a generic cell rate algorithm); asking for a slot no earlier than a burst's
  // worth of spacings ago lets a burst go at once, and the spacing paces the rest.
  const updateSpacingMs = 60_000 / pacing.updatesPerMinute;
  const burstAgoMs = (pacing.updateBurst - 1) * updateSpacingMs;
  const nextUpdateMoment = async (): Promise<number> => {
    if (claimUpdate === undefined) return ownUpdateMoment();
    try {
      return Math.max(now(), await claimUpdate(now() - burstAgoMs, updateSpacingMs));
    } catch (error) {
      // A store that does not answer must not stop card updates: this one keeps this replica's budget.
      deps.updateUnclaimed?.(error);
      return ownUpdateMoment();
    }
  };
  /** Updates waiting for the budget, oldest card first; a newer update of a card replaces its older one. */
  const waitingUpdates = new Map<string, () => Promise<void>>();
  /** Moments already taken from the budget by updates that then had to wait: the drain spends them first. */
  const heldMoments: number[] = [];
  let draining = false;
  /** Sends the waiting updates one at a time, each at its moment. */
  const drain = async () => {
    if (draining) return;
    draining = true;
    try {
      for (const [card] of waitingUpdates) {
        const at = heldMoments.shift() ?? (await nextUpdateMoment());
        const wait = at - now();
        if (wait > 0) await sleep(wait);
        // Read after the wait: a newer update of this card may have replaced it meanwhile.
        const latest = waitingUpdates.get(card);
        waitingUpdates.delete(card);
        await latest?.();
      }
    } finally {
      // A moment left over (two updates of one card that both waited) is not banked for later bursts.
      heldMoments.length = 0;
      draining = false;
    }
  };

  return {
    message(channel, send, sender = '') {
      return new Promise((resolve, reject) => {
        const askedAt = now();
        // Settles the caller's promise and never rejects itself, so one failed post never stops the lane.
        const run = () =>
          Promise.resolve()
            .then(() => send(Math.max(askedAt, lastSentAt.get(channel) ?? askedAt)))
            .then((result) => {
              lastSentAt.set(channel, now());
              resolve(result);
            }, reject);
        const senders = lanes.get(channel);
        if (senders === undefined) {
          const fresh = new Map([[sender, [run]]]);
          lanes.set(channel, fresh);
          void drainLane(channel, fresh);
          return;
        }
        const waiting = senders.get(sender);
        if (waiting === undefined) senders.set(sender, [run]);
        else waiting.push(run);
      });
    },

    async update(card, send) {
      if (unpaced) return send();
      if (waitingUpdates.size > 0 || draining) {
        // A card already waiting keeps its place in the queue with its newest content.
        waitingUpdates.set(card, send);
        return;
      }
      const at = await nextUpdateMoment();
      if (at <= now()) return send();
      // Out of budget: the moment taken is this update's turn, and the caller goes on.
      heldMoments.push(at);
      heldMoments.sort((x, y) => x - y);
      waitingUpdates.set(card, send);
      void drain();
    },
  };
}
