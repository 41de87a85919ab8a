// Paces what the bot posts on its own (watch completions, card updates) to Slack's limits, so that a
// burst of finishes drains at Slack's pace instead of into 429s. Two lanes per channel, each first in
// first out, so one person's replies (and one card's updates) keep their order:
// - messages: chat.postMessage allows about one message per second per channel; each message waits
//   until a second after the previous one in its channel started.
// - card updates: chat.update is Tier 3, about 50 a minute for the workspace, so updates share one
//   bucket (a burst of UPDATE_BURST, then UPDATES_PER_MINUTE). Replies never wait behind updates:
//   the reply is what a person waits for, the card catches up.
// Slack's own 429s are still honoured underneath: @slack/web-api waits out Retry-After and retries.
import { SLACK_PACING, type SlackPacing } from '../config.js';

export interface ChannelPacer {
  /** Runs `send` (a chat.postMessage) after the earlier messages of `channel`, at Slack's pace. */
  message<T>(channel: string, send: () => Promise<T>): Promise<T>;
  /** Runs `send` (a chat.update) after the earlier updates of `channel`, within the update tier. */
  update<T>(channel: string, send: () => Promise<T>): Promise<T>;
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
  if (pacing === null) return { message: (_channel, send) => send(), update: (_channel, send) => send() };
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? realSleep;

  /** The tail of each lane: the next item starts once it settles. Dropped when the lane empties. */
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

  /** Waits for a chat.update token; tokens refill continuously at updatesPerMinute. */
  const takeUpdateToken = async (): Promise<void> => {
    for (;;) {
      const at = now();
      const perMs = pacing.updatesPerMinute / 60_000;
      updateTokens = Math.min(pacing.updateBurst, updateTokens + (at - tokensAt) * perMs);
      tokensAt = at;
      if (updateTokens >= 1) {
        updateTokens -= 1;
        return;
      }
      await sleep(Math.ceil((1 - updateTokens) / perMs));
    }
  };

  return {
    message(channel, send) {
      return enqueue(`message:${channel}`, async () => {
        const wait =
          (lastMessageAt.get(channel) ?? Number.NEGATIVE_INFINITY) + pacing.messageSpacingMs - now();
        if (wait > 0) await sleep(wait);
        // One number per channel the bot has posted in since it started: small even in thousands.
        lastMessageAt.set(channel, now());
        return send();
      });
    },

    update(channel, send) {
      return enqueue(`update:${channel}`, async () => {
        await takeUpdateToken();
        return send();
      });
    },
  };
}
