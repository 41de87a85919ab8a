// How often one person's Slackbot may call the bot's tools: a model that loops, or a prompt that asks
// for a hundred machines one by one, must not spend the person's Paperspace rate limit (or ours). Kept
// per replica: behind two replicas a person gets at most twice the pace, still far below what harms.
export const CALLS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

export interface CallLimiter {
  /** True when `key` may make another call at `at`; records the call when it may. */
  allow(key: string, at: number): boolean;
}

export function createCallLimiter(perMinute: number = CALLS_PER_MINUTE): CallLimiter {
  const calls = new Map<string, number[]>();
  return {
    allow(key, at) {
      const recent = (calls.get(key) ?? []).filter((time) => time > at - WINDOW_MS);
      if (recent.length >= perMinute) {
        calls.set(key, recent);
        return false;
      }
      recent.push(at);
      calls.set(key, recent);
      // Forget people who have been quiet for a minute, so the map holds only who is calling now.
      if (calls.size > 10_000) {
        for (const [known, times] of calls)
          if (times.every((time) => time <= at - WINDOW_MS)) calls.delete(known);
      }
      return true;
    },
  };
}
