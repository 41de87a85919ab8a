// Logs a person's failing polls once per streak instead of once per interval. A key that hangs (or is
// revoked, or an account in an incident) fails every poll the same way; a warning every 5 s per person
// buries everything else in the log and says nothing new. The streak's start is a warning, its end
// (the first poll that answers) an info line with how long it lasted; a different failure in the
// middle of a streak is news and warned again. Counting every failed or skipped poll is the metrics'
// job, not the log's.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import { PaperspaceApiError } from '../../paperspace/errors.js';

export interface PollFailureStreaks {
  /** A poll of the person could not list their machines. */
  failed(userKey: string, error: unknown): void;
  /** A poll of the person listed their machines: ends their streak, if any. */
  answered(userKey: string): void;
  /** Forgets the people not in `userKeys` (no longer polled here), so the map stays bounded. */
  keepOnly(userKeys: ReadonlySet<string>): void;
}

interface Streak {
  readonly kind: string;
  readonly since: number;
  failures: number;
}

/** What makes two failures "the same": the error's class and, for Paperspace's, its HTTP status. */
function kindOf(error: unknown): string {
  if (error instanceof PaperspaceApiError) return `${error.name}:${error.status}`;
  return error instanceof Error ? error.name : typeof error;
}

export function createPollFailureStreaks(logger: Logger, now: () => number): PollFailureStreaks {
  const streaks = new Map<string, Streak>();
  return {
    failed(userKey, error) {
      const kind = kindOf(error);
      const streak = streaks.get(userKey);
      if (streak?.kind === kind) {
        streak.failures += 1;
        return;
      }
      streaks.set(userKey, { kind, since: now(), failures: 1 });
      logger.warn(
        { user: userKey, error: describeError(error) },
        'could not list the machines of a user; logged once until a poll of theirs answers',
      );
    },
    answered(userKey) {
      const streak = streaks.get(userKey);
      if (streak === undefined) return;
      streaks.delete(userKey);
      logger.info(
        { user: userKey, failedPolls: streak.failures, seconds: Math.round((now() - streak.since) / 1000) },
        'the machines of a user could be listed again',
      );
    },
    keepOnly(userKeys) {
      for (const userKey of streaks.keys()) if (!userKeys.has(userKey)) streaks.delete(userKey);
    },
  };
}
