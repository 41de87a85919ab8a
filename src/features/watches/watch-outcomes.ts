// Posting the outcome of a finished watch, at least once. The replica that finishes a watch stores
// what it is about to post in the same conditional update that finishes it (store.watches.complete),
// posts it, and marks it reported. If that replica dies in between, or Slack fails the post, the
// report stays due and any replica's next tick posts it once it is RETRY_AFTER_MS old.
//
// The price is a rare duplicate instead of a lost reply: docs/scheduler.md lists when one can happen
// (a crash between Slack taking the reply and the record of it, a post whose fate Slack left unknown,
// a stalled replica). Slack offers no idempotency key to close those gaps; losing "your machine is
// ready" is the worse failure. What it can do is say so: the moment a post is handed to Slack is
// recorded (reportSending), so a later post of a reply that may have landed ends with a note that it
// may be a repeat, and one that never went out is posted plainly.
import type { Logger } from 'pino';
import { z } from 'zod';
import { describeError } from '../../errors/describe-error.js';
import { type Machine, machineSchema } from '../../paperspace/schemas.js';
import type { Store } from '../../store/store.js';
import { type TimelineEntry, timelineSchema, type Watch } from '../../store/watch-types.js';
import type { WatchOutcome } from './watch-messages.js';
import type { WatchReporter } from './watch-reporter.js';

/** What is posted about a finished watch: its outcome, the machine as last seen, its timeline. */
interface WatchReport {
  outcome: WatchOutcome;
  machine: Machine | null;
  timeline: TimelineEntry[];
}

/**
 * How long a report waits for the replica that finished the watch before any replica may post it. Longer
 * than a post can take: the Web API client gives each call 10 s and no retry, and a reply tries at worst
 * its thread, the channel, the DM and an ephemeral message.
 */
export const RETRY_AFTER_MS = 2 * 60_000;
/** A report Slack keeps refusing (in the channel, the DM and ephemerally) is given up after this long. */
export const GIVE_UP_AFTER_MS = 60 * 60_000;
/** Due reports taken per tick; the rest come next tick. */
const REPORTS_PER_TICK = 100;

const outcomeSchema: z.ZodType<WatchOutcome> = z.discriminatedUnion('status', [
  z.object({ status: z.literal('done'), state: z.string(), elapsedMs: z.number() }),
  z.object({ status: z.literal('failed'), operation: z.string(), message: z.string(), state: z.string() }),
  z.object({ status: z.literal('stopped'), reason: z.string() }),
  z.object({ status: z.literal('not_sent'), operation: z.string(), state: z.string() }),
  z.object({
    status: z.literal('timed_out'),
    lastState: z.string().nullable(),
    lastError: z.string().optional(),
  }),
  z.object({ status: z.literal('gone') }),
]);
const reportSchema = z.object({
  outcome: outcomeSchema,
  machine: machineSchema.nullable(),
  timeline: timelineSchema,
});

export interface WatchOutcomes {
  /** The stored form of `report`, for `store.watches.complete()`, due for any replica from `now` + RETRY_AFTER_MS. */
  stored(report: WatchReport, now: number): { body: string; retryAt: number };
  /**
   * Starts posting the report of a watch this replica just finished, and marks it reported once
   * posted, without waiting: the post waits its turn in the channel's queue (Slack allows about one a
   * second per channel), and a tick that waited for it would hold every other person's poll back.
   */
  dispatch(watch: Watch, report: WatchReport): void;
  /** Resolves once every dispatched post has ended (the scheduler's stop, and a tick asked for explicitly). */
  settled(): Promise<void>;
  /**
   * Starts posting the reports that are due (left by a replica that died, or refused by Slack before),
   * each as dispatch() does; settled() waits for them.
   */
  retryDue(): Promise<void>;
}

export function createWatchOutcomes(deps: {
  store: Pick<Store, 'watches'>;
  reporter: WatchReporter;
  logger: Logger;
  now: () => number;
  /** Told each time a post fails (counted in /metrics). */
  postFailed?: () => void;
}): WatchOutcomes {
  const { store, reporter, logger } = deps;

  const post = async (watch: Watch, report: WatchReport, mayRepeat = false) => {
    const record = {
      sending: () => store.watches.reportSending(watch.id, deps.now()),
      refused: () => store.watches.reportSending(watch.id, null),
      delivered: () => store.watches.reported(watch.id),
    };
    try {
      await reporter.finished(
        watch,
        report.outcome,
        report.machine ?? undefined,
        report.timeline,
        record,
        mayRepeat,
      );
    } catch (error) {
      // A channel that is gone or refuses the bot does not land here: the reporter took the outcome to
      // the person's DM. What remains is a post no one took, or one whose fate Slack left unknown.
      deps.postFailed?.();
      logger.warn(
        { watchId: watch.id, error: describeError(error), retryInMs: RETRY_AFTER_MS },
        'could not post the outcome of a watch; it stays due',
      );
    }
  };

  /** Posts under way, by watch: retryDue leaves them alone, though their retry time may come first. */
  const inFlight = new Map<string, Promise<void>>();
  const dispatch = (watch: Watch, report: WatchReport, mayRepeat = false) => {
    // post() catches every failure (the report stays due), so nothing here can reject unobserved.
    const posting = post(watch, report, mayRepeat).finally(() => inFlight.delete(watch.id));
    inFlight.set(watch.id, posting);
  };

  return {
    stored: (report, now) => ({ body: JSON.stringify(report), retryAt: now + RETRY_AFTER_MS }),

    dispatch: (watch, report) => dispatch(watch, report),

    async settled() {
      while (inFlight.size > 0) await Promise.all(inFlight.values());
    },

    async retryDue() {
      const now = deps.now();
      for (const due of await store.watches.dueReports(now, REPORTS_PER_TICK)) {
        const { watch } = due;
        if (inFlight.has(watch.id)) continue;
        if (now - (watch.completedAt ?? now) >= GIVE_UP_AFTER_MS) {
          await store.watches.reported(watch.id);
          logger.error(
            { watchId: watch.id, channel: watch.channel, finishedAt: watch.completedAt },
            'gave up posting the outcome of a watch',
          );
          continue;
        }
        if (!(await store.watches.claimReport(watch.id, due.dueAt, now + RETRY_AFTER_MS))) continue;
        const report = readReport(due.body);
        if (report === undefined) {
          // Written by this code, so unreadable means a bug or a hand-edited row: never retried forever.
          await store.watches.reported(watch.id);
          logger.error({ watchId: watch.id }, 'the stored outcome of a watch is unreadable; not posted');
          continue;
        }
        // Handed to the channel pacer like a fresh outcome, not awaited one by one: a retry wave led by
        // one person's 50 reports would otherwise hold everyone else's back by 50 paced posts.
        // A post of it that went out without an answer recorded (the replica died, or Slack never
        // answered) may have landed: this one says it may be a repeat.
        dispatch(watch, report, due.sentAt !== null);
      }
    },
  };
}

function readReport(body: string): WatchReport | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  const parsed = reportSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
