// The scheduler: everything the bot does on its own, later. Watches (polled every POLL_INTERVAL_MS),
// shutdown reminders (node-cron), snoozed reminders and expiring shares (on the same tick). All state
// lives in the store, so a restart resumes where the last run stopped, and every result that is
// posted is claimed in the store first, so it is posted once even with several replicas.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { createReminderDelivery } from '../features/reminders/reminder-delivery.js';
import { createReminderScheduler } from '../features/reminders/reminder-scheduler.js';
import { createSnoozeRunner } from '../features/reminders/snoozes.js';
import { createDelegationExpiry } from '../features/shares/delegation-expiry.js';
import type { MachineWatcher } from '../features/watches/machine-watcher.js';
import { createWatchOutcomes } from '../features/watches/watch-outcomes.js';
import { createWatchPoller } from '../features/watches/watch-poller.js';
import { createWatchReporter } from '../features/watches/watch-reporter.js';
import { describeError } from '../slack/error-handler.js';
import type { Store } from '../store/store.js';
import type { KeyVault } from '../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../vault/paperspace-clients.js';
import { type CronEngine, createNodeCronEngine } from './cron-engine.js';

/** How the poll tick is driven. Tests use manualTimers and call tick() themselves. */
export interface SchedulerTimers {
  /** Calls `run` every `ms` until the returned function is called. */
  every(ms: number, run: () => void): () => void;
}

export const realTimers: SchedulerTimers = {
  every(ms, run) {
    const timer = setInterval(run, ms);
    // The scheduler never keeps the process alive on its own; the Slack server does.
    timer.unref();
    return () => clearInterval(timer);
  },
};

/** No automatic ticks: only explicit tick() calls poll. */
export const manualTimers: SchedulerTimers = {
  every: () => () => undefined,
};

export interface SchedulerDeps {
  store: Store;
  vault: Pick<KeyVault, 'account'>;
  clients: PaperspaceClientFactory;
  /** The bot token's Web API client (the Slack app's `app.client`). */
  slack: WebClient;
  logger: Logger;
  now: () => number;
  pollIntervalMs: number;
  timers?: SchedulerTimers;
  /** node-cron by default. */
  cron?: CronEngine;
  /** Names this replica in leases and reminder claims; unique per process by default. */
  replicaId?: string;
  /** Told what happened, for metrics; nothing by default. */
  observer?: SchedulerObserver;
}

/** What the scheduler reports as it runs (the bot counts it in /metrics). */
export interface SchedulerObserver {
  /** A reminder was delivered by this replica: a cron fire, or a snoozed one asked again. */
  reminderFired(kind: 'scheduled' | 'snoozed'): void;
  /**
   * A tick step failed (`scheduler`), a reminder could not be delivered (`reminder`), or the outcome of
   * a watch could not be posted this time (`completion`).
   */
  failed(source: 'scheduler' | 'reminder' | 'completion'): void;
}

const NO_OBSERVER: SchedulerObserver = { reminderFired: () => undefined, failed: () => undefined };

export interface Scheduler extends MachineWatcher {
  /** Schedules the stored reminders and starts polling. */
  start(): Promise<void>;
  /** Stops polling and reminders, waits for a running tick, and gives up this replica's watch leases. */
  stop(): Promise<void>;
  /** One poll: reminders synced with the store, watches, due snoozes, expired shares, housekeeping. Nothing after stop(). */
  tick(): Promise<void>;
}

export const DEFAULT_WATCH_TIMEOUT_MS = 30 * 60_000;
/** A replica that stops renewing its claims (it crashed) hands its watches over after this. */
const MIN_LEASE_MS = 30_000;
const HOUSEKEEPING_EVERY_MS = 60 * 60_000;
/** Finished watches are kept this long for support questions ("did it ever finish?"). */
const KEEP_FINISHED_WATCHES_MS = 30 * 24 * 60 * 60_000;
/** Claimed reminder occurrences only matter while replicas may still fire them. */
const KEEP_REMINDER_RUNS_MS = 2 * 24 * 60 * 60_000;

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const { store, logger, now } = deps;
  const owner = deps.replicaId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const timers = deps.timers ?? realTimers;
  const observer = deps.observer ?? NO_OBSERVER;
  // Counted here, where every delivery passes: reminders.ts and snoozes.ts log the failure they rethrow.
  const observed =
    <T>(kind: 'scheduled' | 'snoozed', deliver: (item: T) => Promise<void>) =>
    async (item: T) => {
      try {
        await deliver(item);
      } catch (error) {
        observer.failed('reminder');
        throw error;
      }
      observer.reminderFired(kind);
    };
  const reporter = createWatchReporter({ slack: deps.slack, logger });
  const outcomes = createWatchOutcomes({
    store,
    reporter,
    logger,
    now,
    postFailed: () => observer.failed('completion'),
  });
  const poller = createWatchPoller({
    store,
    clients: deps.clients,
    reporter,
    outcomes,
    logger,
    now,
    owner,
    leaseMs: Math.max(MIN_LEASE_MS, 3 * deps.pollIntervalMs),
    pollIntervalMs: deps.pollIntervalMs,
  });
  const delivery = createReminderDelivery({
    clients: deps.clients,
    vault: deps.vault,
    slack: deps.slack,
    logger,
  });
  const reminders = createReminderScheduler({
    store,
    cron: deps.cron ?? createNodeCronEngine(logger),
    deliver: observed('scheduled', (reminder) => delivery.remind(reminder)),
    now,
    owner,
    logger,
  });
  const snoozes = createSnoozeRunner({
    store,
    deliver: observed('snoozed', (snooze) => delivery.remindAgain(snooze)),
    now,
    logger,
  });
  const expiry = createDelegationExpiry({ store, clients: deps.clients, slack: deps.slack, now, logger });

  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  const housekeeping = async () => {
    if (now() - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
    lastHousekeeping = now();
    await store.watches.purgeFinished(now() - KEEP_FINISHED_WATCHES_MS);
    await store.reminders.pruneRuns(now() - KEEP_REMINDER_RUNS_MS);
  };

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
  const runTick = async () => {
    // A tick asked for after stop() would schedule reminders again and take leases just given up.
    if (stopped) return;
    await step('reminders', () => reminders.sync());
    await step('watches', () => poller.tick());
    await step('watch outcomes', () => outcomes.retryDue());
    await step('snoozes', () => snoozes.tick());
    await step('shares', () => expiry.tick());
    await step('housekeeping', housekeeping);
  };

  // Ticks never overlap: an explicit tick() waits for one under way, and a timer tick that finds one
  // under way is skipped (the next interval comes soon enough).
  let queue: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    queue = queue.then(async () => {
      busy = true;
      try {
        await runTick();
      } finally {
        busy = false;
      }
    });
    return queue;
  };

  let stopTimer: (() => void) | undefined;

  return {
    async watch(request) {
      const at = now();
      // A newer request about the same card replaces the older watch of it, in the store and atomically
      // (two clicks may reach two replicas at once): one card tells one story, and a Start clicked twice
      // is answered once.
      return store.watches.create({
        teamId: request.user.teamId,
        userId: request.user.userId,
        machineId: request.machineId,
        machineName: request.machineName,
        targetState: request.targetState,
        channel: request.channel,
        messageTs: request.messageTs ?? null,
        threadTs: request.threadTs ?? null,
        lastState: request.initialState ?? null,
        createdAt: at,
        deadlineAt: at + (request.timeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS),
      });
    },

    tick,

    async start() {
      if (stopTimer !== undefined) return;
      stopped = false;
      await step('reminders', () => reminders.sync());
      stopTimer = timers.every(deps.pollIntervalMs, () => {
        if (!busy) void tick();
      });
      logger.info({ replica: owner, pollIntervalMs: deps.pollIntervalMs }, 'scheduler started');
    },

    async stop() {
      stopped = true;
      stopTimer?.();
      stopTimer = undefined;
      // After the tick under way, so that it cannot schedule reminders again once they are stopped.
      await queue;
      reminders.stop();
      await step('release', async () => {
        await store.watches.release(owner);
      });
    },
  };
}
