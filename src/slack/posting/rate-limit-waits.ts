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
 * The moment a post gives up waiting out 429s: MAX_RATE_LIMIT_WAIT_MS after `from`, the moment from
 * which its channel may have been refusing it (now, or when the channel's pacer says; channel-pacer.ts).
 */
export function rateLimitDeadline(from: number = Date.now()): number {
  return from + MAX_RATE_LIMIT_WAIT_MS;
}

/**
 * Runs a call to one conversation until Slack stops rate limiting it, waiting Retry-After each time,
 * until `giveUpAt`; a wait that would end later throws the 429 at once (nothing was posted). With the
 * pacer, the deadline counts from when the post was asked for, or from the channel's last post that
 * went through since: a post queued behind another that Slack refused for a minute has been refused
 * as long, and tries once more at most, so a channel Slack keeps refusing delays each of its posts
 * about a minute, not a minute for every post ahead of it.
 */
export async function waitingOutRateLimits<T>(
  call: () => Promise<T>,
  giveUpAt: number = rateLimitDeadline(),
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const seconds = retryAfterSeconds(error);
      const waitMs = seconds === undefined ? undefined : Math.max(seconds * 1000, 100);
      if (waitMs === undefined || attempt >= MAX_RATE_LIMIT_WAITS || Date.now() + waitMs > giveUpAt) {
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
