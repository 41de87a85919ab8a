// The scheduler engine: everything the bot does on its own, later, runs as jobs that the features
// give it (watches, reminders, snoozes, expiring shares). The engine ticks every POLL_INTERVAL_MS, runs
// the jobs in order, keeps ticks from overlapping, and logs a failed job without stopping the others.
// All state lives in the store, so a restart resumes where the last run stopped, and every result
// that is posted is claimed in the store first, so it is posted once even with several replicas.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import type { SpreadTimer } from './interval-spread.js';
import { NO_OBSERVER, type SchedulerJob, type SchedulerObserver, type TickCause } from './job.js';

/** How the poll tick is driven. Tests use manualTimers and call tick() themselves. */
export interface SchedulerTimers {
  /**
   * Calls `run` every `ms` until the returned function is called. `run` resolves when the tick it
   * started (if any) has run every job; what the jobs handed off may still be under way.
   */
  every(ms: number, run: () => Promise<void>): () => void;
  /**
   * Keeps time for work a tick spreads across its interval (interval-spread.ts). Timers a test fires by
   * hand leave it out, and that work then starts with the tick.
   */
  spread?: SpreadTimer;
}

export const realTimers: SchedulerTimers = {
  every(ms, run) {
    const timer = setInterval(() => void run(), ms);
    // The scheduler never keeps the process alive on its own; the Slack server does.
    timer.unref();
    return () => clearInterval(timer);
  },
  spread: {
    now: Date.now,
    after(ms, run) {
      const timer = setTimeout(run, ms);
      timer.unref();
      return () => clearTimeout(timer);
    },
  },
};

/** No automatic ticks: only explicit tick() calls poll. */
export const manualTimers: SchedulerTimers = {
  every: () => () => undefined,
};

export interface SchedulerDeps {
  /** Run in this order on every tick. */
  jobs: SchedulerJob[];
  logger: Logger;
  pollIntervalMs: number;
  timers?: SchedulerTimers;
  /** Told when a job's step fails, for metrics; nothing by default. */
  observer?: SchedulerObserver;
  /** Names this replica in the log line at start. */
  replicaId: string;
}

export interface Scheduler {
  /** Starts every job, then ticks every pollIntervalMs. */
  start(): Promise<void>;
  /** Stops ticking, waits for a running tick, then stops every job. */
  stop(): Promise<void>;
  /** One tick: every job in order, and what it handed off settled. Nothing after stop(). */
  tick(): Promise<void>;
}

/** A name for this process in leases and claims: unique per process, readable in the store. */
export function newReplicaId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { logger, jobs } = deps;
  const timers = deps.timers ?? realTimers;
  const observer = deps.observer ?? NO_OBSERVER;

  const step = async (name: string, run: () => Promise<void>) => {
    try {
      await run();
    } catch (error) {
      observer.failed('scheduler');
      logger.error(
        { step: name, error: describeError(error) },
        'a scheduler step failed; retrying next tick',
      );
    }
  };

  let stopped = false;
  const runTick = async (cause: TickCause) => {
    // A tick asked for after stop() would schedule reminders again and take leases just given up.
    if (stopped) return;
    for (const job of jobs) await step(job.name, () => job.tick(cause));
  };

  const settled = async () => {
    for (const job of jobs) if (job.settled) await step(job.name, () => job.settled?.() ?? Promise.resolve());
  };

  // Ticks never overlap: an explicit tick() waits for one under way, and a timer tick that finds one
  // under way is skipped (the next interval comes soon enough). A tick is short: the jobs hand off what
  // may take long (each person's poll, each post), so a slow person never makes a tick skipped.
  let queue: Promise<void> = Promise.resolve();
  let busy = false;
  const queueTick = (cause: TickCause) => {
    queue = queue.then(async () => {
      busy = true;
      try {
        await runTick(cause);
      } finally {
        busy = false;
      }
    });
    return queue;
  };
  // An explicit tick does its work now rather than spread over an interval, and waits for what it
  // handed off (see SchedulerJob.settled): a test, or the sandbox's clock, sees its whole effect.
  const tick = async () => {
    await queueTick({ fromTimer: false });
    await settled();
  };

  let stopTimer: (() => void) | undefined;

  return {
    tick,

    async start() {
      if (stopTimer !== undefined) return;
      stopped = false;
      for (const job of jobs) if (job.start) await step(job.name, () => job.start?.() ?? Promise.resolve());
      stopTimer = timers.every(deps.pollIntervalMs, () =>
        busy ? Promise.resolve() : queueTick({ fromTimer: true }),
      );
      logger.info({ replica: deps.replicaId, pollIntervalMs: deps.pollIntervalMs }, 'scheduler started');
    },

    async stop() {
      stopped = true;
      stopTimer?.();
      stopTimer = undefined;
      // After the tick under way, so that a job cannot start again what its stop() ends.
      await queue;
      // Work a tick left for later in its interval is dropped rather than waited for: the leases given
      // up below hand it to another replica.
      for (const job of jobs) job.halt?.();
      await settled();
      for (const job of jobs) if (job.stop) await step(job.name, () => job.stop?.() ?? Promise.resolve());
    },
  };
}
