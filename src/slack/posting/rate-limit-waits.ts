// Waiting out Slack's 429s for one post, in one place: how long a post may wait in all, and how the
// wait is read from the error. A 429 says "not yet", not "not here", so the post waits and goes to the
// same conversation (posting.ts); past the limit it is given up and reported as not posted.
import { webApi } from '@slack/bolt';
import { describeError } from '../../errors/describe-error.js';

/**
 * How long one post waits out 429s in all before it gives up (and is reported as not posted): Slack
 * asks for about a second per message in a channel, so a minute is a burst of 60 ahead of it.
 */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;
const MAX_RATE_LIMIT_WAITS = 5;

/** Seconds Slack asked to wait when it rate limited a call; undefined for any other failure. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (describeError(error).code !== webApi.ErrorCode.RateLimitedError) return undefined;
  const seconds = (error as { retryAfter?: unknown }).retryAfter;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : 1;
}

/**
 * Runs a call to one conversation until Slack stops rate limiting it, waiting Retry-After each time,
 * within MAX_RATE_LIMIT_WAIT_MS; past that the 429 is thrown (nothing was posted).
 */
export async function waitingOutRateLimits<T>(call: () => Promise<T>): Promise<T> {
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
