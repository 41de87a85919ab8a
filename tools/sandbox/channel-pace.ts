// Slack's rate limits that the bot must keep, as the sandbox and the fake Slack of the tests both
// answer them, so a bot that keeps a pace in one keeps it in the other, and a 429 looks the same in both.
// - chat.postMessage in one conversation: "1 message per second to a specific channel ... generous
//   burst behavior is also granted" (Slack's rate limit docs). The burst size is not published, so a
//   small one is granted.
// - chat.update: Tier 3, "50+ per minute", counted per app per workspace, "sporadic bursts" tolerated.
//   The floor of 50 a minute is what an app may count on; the burst granted is one minute's worth.
const CHANNEL_BURST = 5;
const CHANNEL_MESSAGES_PER_SECOND = 1;
const TIER_3_PER_MINUTE = 50;

export interface ChannelPace {
  /** Takes a call for `key` (a channel, a workspace): undefined when Slack takes it, else the seconds of its Retry-After. */
  take(key: string): number | undefined;
  /** Forgets every key's pace. */
  reset(): void;
}

/** A token bucket per key, refilled continuously by `now`'s clock. */
function createPace(now: () => number, burst: number, perSecond: number): ChannelPace {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const at = now();
      const bucket = buckets.get(key) ?? { tokens: burst, at };
      bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
      bucket.at = at;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.ceil((1 - bucket.tokens) / perSecond);
    },
    reset: () => buckets.clear(),
  };
}

/** chat.postMessage's pace, per conversation. */
export const createChannelPace = (now: () => number): ChannelPace =>
  createPace(now, CHANNEL_BURST, CHANNEL_MESSAGES_PER_SECOND);

/** chat.update's pace (Tier 3), per workspace. */
export const createUpdatePace = (now: () => number): ChannelPace =>
  createPace(now, TIER_3_PER_MINUTE, TIER_3_PER_MINUTE / 60);
