// What the watch poller remembers of each person between ticks: a pause after Paperspace limited
// their key (429), and the last failure of a poll, quoted if one of their watches then times out.
import { PaperspaceError, PaperspaceRateLimitError } from '../../paperspace/errors.js';

/** A 429 without Retry-After pauses the user for the poll interval, doubled per repeat, up to this. */
const MAX_RATE_LIMIT_PAUSE_MS = 5 * 60_000;

export interface PersonPollTroubles {
  /** Whether the person's polling is paused (a 429) at `now`. */
  paused(userKey: string, now: number): boolean;
  /**
   * Records a failed call: Paperspace limits calls per API key, so a 429 on any call pauses that
   * person's polling for as long as it asks (Retry-After), or for the poll interval doubled per
   * repeat. Other people keep their pace. `quote: false` pauses without keeping it to quote.
   */
  failed(userKey: string, error: unknown, options?: { quote: boolean }): void;
  /** Records a failure that is not Paperspace's, in words a person can read. */
  note(userKey: string, problem: string): void;
  /** The last failure recorded for the person, if any since their last good poll. */
  lastError(userKey: string): string | undefined;
  /** The person's machines were listed: no pause, nothing to quote. */
  cleared(userKey: string): void;
}

export function createPersonPollTroubles(pollIntervalMs: number, now: () => number): PersonPollTroubles {
  /** Users answered with 429, paused until `until`. */
  const pauses = new Map<string, { until: number; strikes: number }>();
  /** The last failed poll per user, quoted if their watch then times out. */
  const lastErrors = new Map<string, string>();
  return {
    paused: (userKey, at) => (pauses.get(userKey)?.until ?? 0) > at,
    failed(userKey, error, { quote } = { quote: true }) {
      if (quote) lastErrors.set(userKey, messageOf(error));
      if (!(error instanceof PaperspaceRateLimitError)) return;
      const strikes = (pauses.get(userKey)?.strikes ?? 0) + 1;
      const wait = error.retryAfterMs ?? Math.min(pollIntervalMs * 2 ** strikes, MAX_RATE_LIMIT_PAUSE_MS);
      pauses.set(userKey, { until: now() + wait, strikes });
    },
    note: (userKey, problem) => {
      lastErrors.set(userKey, problem);
    },
    lastError: (userKey) => lastErrors.get(userKey),
    cleared(userKey) {
      pauses.delete(userKey);
      lastErrors.delete(userKey);
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof PaperspaceError ? error.message : 'an unexpected error (logged)';
}
