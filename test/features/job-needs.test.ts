// The wiring of the features' scheduler work: each feature's jobs and machine checks are handed the
// repositories and resources they declare, and nothing else, so no job holds the whole store.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION } from '../../src/config.js';
import type { Feature } from '../../src/features/feature.js';
import { featureJobs } from '../../src/features/index.js';
import { type JobResources, planJobs } from '../../src/features/job-needs.js';
import { createLogger } from '../../src/logger.js';
import { NO_OBSERVER, type PersonMachineCheck } from '../../src/scheduler/job.js';
import { createChannelPacer } from '../../src/slack/channel-pacer.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createManualCron } from '../support/manual-cron.js';

let directory: string;
let store: Store;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'job-needs-'));
  store = await openStore(`sqlite:${join(directory, 'bot.db')}`);
});

afterEach(async () => {
  await store.close();
  await rm(directory, { recursive: true, force: true });
});

/** Everything the bot has for its jobs, the whole store among it. */
function botResources(): Omit<JobResources, 'machineChecks'> {
  const now = () => 0;
  return {
    store,
    vault: {
      account: async () => undefined,
      maskedKey: async () => undefined,
      credentials: async () => undefined,
    },
    clients: {} as JobResources['clients'],
    slack: async () => {
      throw new Error('no Slack here');
    },
    pacer: createChannelPacer({ pacing: null }),
    retention: DEFAULT_RETENTION,
    logger: createLogger({ level: 'silent' }),
    now,
    pollIntervalMs: 5000,
    pollConcurrency: 1,
    cron: createManualCron(now),
    replicaId: 'replica-1',
    observer: NO_OBSERVER,
  };
}

const sorted = (object: object) => Object.keys(object).sort();

describe('the jobs of the features', () => {
  it('are handed the repositories and resources they declare, and no other', () => {
    const handed: Record<string, unknown>[] = [];
    const feature: Feature = {
      jobs: planJobs({ store: ['watches', 'watchLeases'], uses: ['logger', 'now'] }, (deps) => {
        handed.push(deps);
        return [];
      }),
    };

    featureJobs(botResources(), [feature]);

    expect(handed).toHaveLength(1);
    const [deps] = handed as [{ store: Store }];
    expect(sorted(deps)).toEqual(['logger', 'now', 'store']);
    expect(sorted(deps.store)).toEqual(['watchLeases', 'watches']);
    expect(deps.store.watches).toBe(store.watches);
    expect(deps.store.watchLeases).toBe(store.watchLeases);
    expect(deps.store).not.toBe(store);
    expect((deps.store as Partial<Store>).audit).toBeUndefined();
    expect((deps.store as Partial<Store>).vaultEntries).toBeUndefined();
  });

  it('hand the machine checks what they declare, and the jobs that declare them every feature’s checks', () => {
    const check: PersonMachineCheck = { name: 'a check', due: () => false, check: async () => undefined };
    let checkDeps: { store: object } | undefined;
    let checksHanded: readonly PersonMachineCheck[] | undefined;
    const checking: Feature = {
      machineChecks: planJobs({ store: ['costAlerts'], uses: ['pacer'] }, (deps) => {
        checkDeps = deps;
        return [check];
      }),
    };
    const polling: Feature = {
      jobs: planJobs({ store: [], uses: ['machineChecks'] }, (deps) => {
        checksHanded = deps.machineChecks;
        expect(sorted(deps)).toEqual(['machineChecks', 'store']);
        expect(sorted(deps.store)).toEqual([]);
        return [];
      }),
    };

    featureJobs(botResources(), [polling, checking]);

    expect(checkDeps && sorted(checkDeps)).toEqual(['pacer', 'store']);
    expect(checkDeps && sorted(checkDeps.store)).toEqual(['costAlerts']);
    expect(checksHanded).toEqual([check]);
  });

  it('leave out an optional resource the bot does not have, as before', () => {
    let deps: object | undefined;
    const feature: Feature = {
      jobs: planJobs({ store: [], uses: ['spread', 'replicaId'] }, (handed) => {
        deps = handed;
        return [];
      }),
    };

    featureJobs(botResources(), [feature]);

    expect(deps && sorted(deps)).toEqual(['replicaId', 'store']);
  });
});
