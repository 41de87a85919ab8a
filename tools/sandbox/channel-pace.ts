// Slack's pace for chat.postMessage in one conversation: "1 message per second to a specific channel
// ... generous burst behavior is also granted" (Slack's rate limit docs). The burst size is not
// published, so a small one is granted. The sandbox and the fake Slack of the tests both answer from
// here, so a bot that keeps this pace in one keeps it in the other, and a 429 looks the same in both.
const CHANNEL_BURST = 5;
const CHANNEL_MESSAGES_PER_SECOND = 1;

export interface ChannelPace {
  /** Takes a post in `channel`: undefined when Slack takes it, else the seconds of its Retry-After. */
  take(channel: string): number | undefined;
  /** Forgets every channel's pace. */
  reset(): void;
}

/** A token bucket per conversation, refilled continuously by `now`'s clock. */
export function createChannelPace(now: () => number): ChannelPace {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(channel) {
      const at = now();
      const bucket = buckets.get(channel) ?? { tokens: CHANNEL_BURST, at };
      bucket.tokens = Math.min(
        CHANNEL_BURST,
        bucket.tokens + ((at - bucket.at) / 1000) * CHANNEL_MESSAGES_PER_SECOND,
      );
      bucket.at = at;
      buckets.set(channel, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return undefined;
      }
      return Math.ceil((1 - bucket.tokens) / CHANNEL_MESSAGES_PER_SECOND);
    },
    reset: () => buckets.clear(),
  };
}
