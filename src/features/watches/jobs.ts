// The watches' work on the scheduler's tick: poll the people this replica holds leases for, post
// outcomes whose first post failed, settle power requests a lost replica left unrecorded, tell the
// people whose acked request a lost replica never carried that far, and drop long-finished watches now
// and then.
import type { WebClient } from '@slack/web-api';
import type { SchedulerJob } from '../../scheduler/job.js';
import type { SlackUser } from '../../store/slack-user.js';
import { type JobDepsOf, type JobPlan, planJobs } from '../job-needs.js';
import { createIntentRecovery } from './intent-recovery.js';
import { createPersonPollTroubles } from './person-poll-troubles.js';
import { createReceiptRecovery } from './receipt-recovery.js';
import { createRowCompletion, type RowFinishers } from './row-messages.js';
import { createWatchOutcomes } from './watch-outcomes.js';
import { createWatchPoller } from './watch-poller.js';
import { createWatchReporter } from './watch-reporter.js';
import { createWatchSteps } from './watch-steps.js';

/** A replica that stops renewing its claims (it crashed) hands its people over after this. */
const MIN_LEASE_MS = 30_000;
const HOUSEKEEPING_EVERY_MS = 60 * 60_000;
/** Finished watches are kept this long for support questions ("did it ever finish?"). */
export const KEEP_FINISHED_WATCHES_MS = 30 * 24 * 60 * 60_000;

const needs = {
  // `approvals` (role notes), `vaultEntries`, `policies` and `costAlerts` (leases) are the App Home's,
  // redrawn when a watch in a DM ends.
  store: [
    'watches',
    'watchLeases',
    'rowMessages',
    'approvals',
    'vaultEntries',
    'machineOwners',
    'policies',
    'costAlerts',
    'receivedRequests',
  ],
  uses: [
    'clients',
    'vault',
    'slack',
    'pacer',
    'logger',
    'now',
    'observer',
    'replicaId',
    'pollIntervalMs',
    'pollConcurrency',
    'spread',
    'machineChecks',
  ],
} as const;

type WatchJobDeps = JobDepsOf<typeof needs>;

/** What drawing a person's App Home reads: their linked key and account, the role notes, the clock. */
type HomeRefreshDeps = Pick<WatchJobDeps, 'clients' | 'vault' | 'logger' | 'now'> & {
  store: Pick<
    WatchJobDeps['store'],
    'approvals' | 'vaultEntries' | 'machineOwners' | 'policies' | 'costAlerts'
  >;
};

/**
 * Draws a person's App Home again once a watch of a machine on it ends (features/home/publish-home.ts,
 * handed in by features/index.ts: the Home draws machines' cards from above the watches feature).
 */
export type HomeRefresh = (web: WebClient, deps: HomeRefreshDeps, user: SlackUser) => Promise<void>;

export function watchJobPlan(refreshHome: HomeRefresh, finishers: RowFinishers): JobPlan<SchedulerJob> {
  return planJobs(needs, (deps) => watchJobs(deps, refreshHome, finishers));
}

function watchJobs(deps: WatchJobDeps, refreshHome: HomeRefresh, finishers: RowFinishers): SchedulerJob[] {
  const { store, logger, now } = deps;
  const { pacer } = deps;
  const home: HomeRefreshDeps = {
    clients: deps.clients,
    vault: deps.vault,
    logger,
    now,
    store: {
      approvals: store.approvals,
      vaultEntries: store.vaultEntries,
      machineOwners: store.machineOwners,
      policies: store.policies,
      costAlerts: store.costAlerts,
    },
  };
  const reporter = createWatchReporter({
    slack: deps.slack,
    logger,
    pacer,
    refreshHome: async (user) => refreshHome(await deps.slack(user.teamId), home, user),
    finishRow: createRowCompletion({ store, slack: deps.slack, pacer, finishers, logger, now }),
    async machineOff(watch) {
      const machine = { id: watch.machineId, name: watch.machineName };
      for (const check of deps.machineChecks) await check.machineOff?.(watch.teamId, machine);
    },
  });
  const outcomes = createWatchOutcomes({
    store,
    reporter,
    logger,
    now,
    postFailed: () => deps.observer.failed('completion'),
  });
  const poller = createWatchPoller({
    store,
    clients: deps.clients,
    vault: deps.vault,
    reporter,
    outcomes,
    logger,
    now,
    owner: deps.replicaId,
    leaseMs: Math.max(MIN_LEASE_MS, 3 * deps.pollIntervalMs),
    pollIntervalMs: deps.pollIntervalMs,
    concurrency: deps.pollConcurrency,
    ...(deps.spread === undefined ? {} : { spread: deps.spread }),
    checks: deps.machineChecks,
    pollSkipped: (reason) => deps.observer.pollSkipped(reason),
  });
  const recovery = createIntentRecovery({
    store,
    vault: deps.vault,
    clients: deps.clients,
    steps: createWatchSteps({
      store,
      reporter,
      outcomes,
      logger,
      now,
      pollIntervalMs: deps.pollIntervalMs,
      troubles: createPersonPollTroubles(deps.pollIntervalMs, now),
    }),
    logger,
    now,
  });
  const receipts = createReceiptRecovery({ store, slack: deps.slack, pacer, logger, now });
  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  return [
    {
      name: 'watches',
      tick: (cause) => poller.tick(cause),
      halt: () => poller.halt(),
      // The polls first: a poll that ends may hand a post to the outcomes.
      settled: async () => {
        await poller.settled();
        await outcomes.settled();
      },
      // Given up at once, so another replica takes these watches on its next tick, not after the lease.
      stop: async () => {
        await store.watchLeases.release(deps.replicaId);
      },
    },
    { name: 'watch outcomes', tick: () => outcomes.retryDue() },
    { name: 'power intents', tick: () => recovery.tick() },
    { name: 'lost requests', tick: () => receipts.tick() },
    {
      name: 'watch housekeeping',
      async tick() {
        if (now() - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
        lastHousekeeping = now();
        await store.watches.purgeFinished(now() - KEEP_FINISHED_WATCHES_MS);
      },
    },
  ];
}
