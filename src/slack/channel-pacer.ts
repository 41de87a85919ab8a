// Paces what the bot posts on its own (watch completions, card updates) to Slack's limits, so that a
// burst of finishes drains at Slack's pace instead of into 429s, and never holds up the scheduler.
// - messages: chat.postMessage allows about one message per second per channel. Each channel has a
//   first-in-first-out lane, so one person's replies keep their order, and each message waits until a
//   second after the previous one in its channel started.
// - card updates: chat.update is Tier 3, about 50 a minute for the whole workspace, far fewer than a
//   burst of 1,000 finishes asks for. A card shows its latest state, so an update that cannot go at
//   once waits in a queue where a newer update of the same card replaces it, and the caller goes on:
//   a tick never waits for the update budget, and the reply (what the person waits for) is never
//   queued behind card updates.
// A 429 Slack sends anyway fails that one call at once (app.ts rejects rate-limited calls rather than
// pausing the shared client): the message moves down the fallback chain and the scheduler's own work
// is tried again on a later tick, so interactive calls never wait behind background traffic.
import { SLACK_PACING, type SlackPacing } from '../config.js';

export interface ChannelPacer {
  /** Runs `send` (a chat.postMessage) after the earlier messages of `channel`, at Slack's pace. */
  message<T>(channel: string, send: () => Promise<T>): Promise<T>;
  /**
   * Sends an update of `card` (a chat.update that handles its own failures) at once when the budget
   * allows, and then resolves once it is sent. Otherwise queues it, replacing an older update of the
   * same card still waiting, and resolves at once: it goes out as the budget refills.
   */
  update(card: string, send: () => Promise<void>): Promise<void>;
}

export interface ChannelPacerDeps {
  /** SLACK_PACING by default; null paces nothing (a Slack stand-in that imposes no limits). */
  pacing?: SlackPacing | null;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createChannelPacer(deps: ChannelPacerDeps = {}): ChannelPacer {
  const pacing = deps.pacing === undefined ? SLACK_PACING : deps.pacing;
  if (pacing === null) return { message: (_channel, send) => send(), update: (_card, send) => send() };
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? realSleep;

  /** The tail of each channel's message lane: the next message starts once it settles. */
  const lanes = new Map<string, Promise<unknown>>();
  const lastMessageAt = new Map<string, number>();
  let updateTokens = pacing.updateBurst;
  let tokensAt = now();

  const enqueue = <T>(lane: string, run: () => Promise<T>): Promise<T> => {
    const previous = lanes.get(lane) ?? Promise.resolve();
    const result = previous.then(run, run);
    const tail = result.catch(() => undefined);
    lanes.set(lane, tail);
    void tail.then(() => {
      if (lanes.get(lane) === tail) lanes.delete(lane);
    });
    return result;
  };

  /** Takes a chat.update token if one is there; tokens refill continuously at updatesPerMinute. */
  const perMs = pacing.updatesPerMinute / 60_000;
  const takeUpdateToken = (): boolean => {
    const at = now();
    updateTokens = Math.min(pacing.updateBurst, updateTokens + (at - tokensAt) * perMs);
    tokensAt = at;
    if (updateTokens < 1) return false;
    updateTokens -= 1;
    return true;
  };
  /** Updates waiting for the budget, oldest card first; a newer update of a card replaces its older one. */
  const waitingUpdates = new Map<string, () => Promise<void>>();
  let draining = false;
  const drain = async () => {
    if (draining) return;
    draining = true;
    try {
      for (const [card, send] of waitingUpdates) {
        while (!takeUpdateToken()) await sleep(Math.ceil((1 - updateTokens) / perMs));
        // Read again after the wait: a newer update of this card may have replaced it meanwhile.
        const latest = waitingUpdates.get(card) ?? send;
        waitingUpdates.delete(card);
        await latest();
      }
    } finally {
      draining = false;
    }
  };

  return {
    message(channel, send) {
      return enqueue(channel, async () => {
        const wait =
          (lastMessageAt.get(channel) ?? Number.NEGATIVE_INFINITY) + pacing.messageSpacingMs - now();
        if (wait > 0) await sleep(wait);
        // One number per channel the bot has posted in since it started: small even in thousands.
        lastMessageAt.set(channel, now());
        return send();
      });
    },

    async update(card, send) {
      if (waitingUpdates.size === 0 && takeUpdateToken()) return send();
      // A card already waiting keeps its place in the queue with its newest content.
      waitingUpdates.set(card, send);
      void drain();
    },
  };
}
