// Cron schedules kept in the store (a person's reminders, a team's digest), run on the cron engine.
// The store is the truth: every tick schedules what is stored and drops what was deleted or changed,
// so an entry made through another replica fires here too. Every replica fires every entry; the claim
// in the store lets exactly one of them run a given occurrence, and a deleted entry's claim fails, so a
// late fire does nothing. Claims are kept only while replicas may still fire that occurrence.
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import type { CronEngine, CronJob } from './cron-engine.js';
import type { SchedulerJob } from './job.js';

export interface StoredCronEntry {
  id: string;
  cron: string;
  timezone: string;
}

/** The part of a store repository these jobs use. */
export interface StoredCronEntries<Entry extends StoredCronEntry> {
  listAll(): Promise<Entry[]>;
  /** True for exactly one caller per occurrence, and for none once the entry is deleted. */
  claimRun(id: string, scheduledAt: number, claim: { owner: string; at: number }): Promise<boolean>;
  pruneRuns(before: number): Promise<number>;
}

export interface StoredCronJobsDeps<Entry extends StoredCronEntry> {
  /** What an entry is, for job names and log lines: "reminder", "team digest". */
  noun: string;
  /** The log field that carries an entry's id, e.g. `reminderId`. */
  idField: string;
  entries: StoredCronEntries<Entry>;
  cron: CronEngine;
  /** Runs one occurrence; called only on the replica that claimed it. */
  run: (entry: Entry) => Promise<void>;
  /** How long a claimed occurrence is kept: longer than any replica may still fire it. */
  keepRunsMs: number;
  now: () => number;
  /** This replica, recorded with each occurrence it claims. */
  owner: string;
  logger: Logger;
}

const HOUSEKEEPING_EVERY_MS = 60 * 60_000;

interface Scheduled {
  /** The entry as scheduled: any change to it in the store schedules it anew. */
  signature: string;
  job: CronJob | undefined;
}

/** The job that keeps the entries scheduled, and the hourly pruning of their old claims. */
export function storedCronJobs<Entry extends StoredCronEntry>(
  deps: StoredCronJobsDeps<Entry>,
): SchedulerJob[] {
  const { noun, logger, now } = deps;
  const scheduled = new Map<string, Scheduled>();
  const logged = (entry: Entry) => ({ [deps.idField]: entry.id });

  const fire = async (entry: Entry, scheduledAt: number) => {
    try {
      const claimed = await deps.entries.claimRun(entry.id, scheduledAt, { owner: deps.owner, at: now() });
      if (claimed) await deps.run(entry);
      logger.info(
        { ...logged(entry), scheduledAt: new Date(scheduledAt).toISOString(), delivered: claimed },
        claimed ? `${noun} fired` : `${noun} fired elsewhere or was deleted`,
      );
    } catch (error) {
      logger.error({ ...logged(entry), error: describeError(error) }, `a ${noun} could not be delivered`);
    }
  };

  const schedule = (entry: Entry, signature: string): Scheduled => {
    try {
      const job = deps.cron.schedule(
        { name: `${noun}:${entry.id}`, expression: entry.cron, timezone: entry.timezone },
        (scheduledAt) => fire(entry, scheduledAt),
      );
      return { signature, job };
    } catch (error) {
      // Kept as scheduled-without-a-job, so a stored entry the engine refuses is logged once, not every
      // tick. Its command validated it, so this means the runtime lost a time zone or the like.
      logger.error(
        { ...logged(entry), cron: entry.cron, timezone: entry.timezone, error: describeError(error) },
        `a stored ${noun} could not be scheduled`,
      );
      return { signature, job: undefined };
    }
  };

  const sync = async () => {
    const entries = await deps.entries.listAll();
    const wanted = new Map(entries.map((entry) => [entry.id, JSON.stringify(entry)]));
    for (const [id, { signature, job }] of scheduled) {
      if (wanted.get(id) !== signature) {
        job?.stop();
        scheduled.delete(id);
      }
    }
    for (const entry of entries) {
      const signature = wanted.get(entry.id) ?? '';
      if (!scheduled.has(entry.id)) scheduled.set(entry.id, schedule(entry, signature));
    }
  };

  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  return [
    {
      name: `${noun}s`,
      start: sync,
      tick: sync,
      async stop() {
        for (const { job } of scheduled.values()) job?.stop();
        scheduled.clear();
      },
    },
    {
      name: `${noun} housekeeping`,
      async tick() {
        if (now() - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
        lastHousekeeping = now();
        await deps.entries.pruneRuns(now() - deps.keepRunsMs);
      },
    },
  ];
}
