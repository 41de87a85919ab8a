// The scheduler against real parts: the emulator and the store share one fake clock, Slack is the
// fake Web API server, and ticks are explicit. createScheduler() builds another scheduler on the same
// store, as a restarted bot (or a second replica) would.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { WebClient } from '@slack/web-api';
import { createBotScheduler } from '../../src/features/index.js';
import {
  createMachineWatcher,
  type MachineWatcher,
  type WatchRequest,
} from '../../src/features/machines/machine-watcher.js';
import { createLogger, type Logger } from '../../src/logger.js';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import type { SchedulerObserver } from '../../src/scheduler/job.js';
import { manualTimers, type Scheduler, type SchedulerTimers } from '../../src/scheduler/scheduler.js';
import type { SlackUser } from '../../src/store/slack-user.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { CreatedWatch } from '../../src/store/watch-types.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';
import {
  createPaperspaceClientFactory,
  type PaperspaceClientFactory,
} from '../../src/vault/paperspace-clients.js';
import {
  createFakeClock,
  type EmulatorOptions,
  type FakeClock,
  type RunningEmulator,
  startEmulator,
} from '../../tools/emulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { createManualCron, type ManualCron } from '../support/manual-cron.js';
import { TEAM_ID, type TestUserName, USERS } from '../support/test-bot.js';

export const POLL_INTERVAL_MS = 5000;
/** The emulator's timed states last this long: one tick later a start has finished. */
export const TRANSITION_MS = 2000;

export interface SchedulerHarness {
  clock: FakeClock;
  emulator: RunningEmulator;
  slack: FakeSlack;
  store: Store;
  vault: KeyVault;
  clients: PaperspaceClientFactory;
  cron: ManualCron;
  logText(): string;
  /** The first scheduler, started. */
  scheduler: Scheduler;
  /** What the listeners ask to follow a machine (a watch in the store, polled by any scheduler). */
  watcher: MachineWatcher;
  /** Another scheduler on the same store (not started), as after a restart or on a second replica. */
  createScheduler(replicaId: string): Scheduler;
  user(name: TestUserName): SlackUser;
  link(name: TestUserName): Promise<void>;
  /** A Paperspace client with the user's key, to act as the listeners would before watching. */
  client(name: TestUserName): PaperspaceClient;
  /**
   * What /ps start does: starts the person's machine with their key and watches it from `off` (its card
   * at '1700000000.000001' in `watch.channel` unless `watch.messageTs` says otherwise).
   */
  startAndWatch(
    name: TestUserName,
    machine: { id: string; name: string },
    watch: Pick<WatchRequest, 'channel' | 'targetState'> &
      Partial<Pick<WatchRequest, 'messageTs' | 'timeoutMs'>>,
  ): Promise<CreatedWatch>;
  /** Moves the shared clock and polls once. */
  advanceAndTick(ms: number, scheduler?: Scheduler): Promise<void>;
  close(): Promise<void>;
}

export async function startSchedulerHarness(
  options: {
    emulator?: EmulatorOptions;
    /** manualTimers by default: only tick() polls. */
    timers?: SchedulerTimers;
    observer?: SchedulerObserver;
    /** POLL_CONCURRENCY; the production default unless a test needs fewer places than people. */
    pollConcurrency?: number;
  } = {},
): Promise<SchedulerHarness> {
  const directory = await mkdtemp(join(tmpdir(), 'ps-scheduler-'));
  const clock = createFakeClock();
  let logs = '';
  const logger: Logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs += chunk.toString('utf8');
        callback();
      },
    }),
  });
  const emulator = await startEmulator({ transitionMs: TRANSITION_MS, now: clock.now, ...options.emulator });
  const slack = await startFakeSlack({
    teamId: TEAM_ID,
    users: Object.values(USERS).map((user) => ({ id: user.slackId, tz: 'Europe/Amsterdam' })),
  });
  const store = await openStore(`sqlite:${join(directory, 'bot.db')}`, { now: clock.now });
  const vault = createKeyVault({ keys: [randomBytes(32)], store, now: clock.now });
  const clients = createPaperspaceClientFactory({
    vault,
    baseUrl: emulator.url,
    graphqlUrl: emulator.graphqlUrl,
    now: clock.now,
  });
  const slackClient = new WebClient('xoxb-scheduler-test', {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
  });
  const cron = createManualCron(clock.now);
  const built: Scheduler[] = [];
  const build = (replicaId: string) => {
    const scheduler = createBotScheduler({
      store,
      vault,
      clients,
      slack: async () => slackClient,
      logger,
      now: clock.now,
      pollIntervalMs: POLL_INTERVAL_MS,
      timers: options.timers ?? manualTimers,
      ...(options.observer === undefined ? {} : { observer: options.observer }),
      ...(options.pollConcurrency === undefined ? {} : { pollConcurrency: options.pollConcurrency }),
      cron,
      replicaId,
      // The fake clock only moves when a test moves it: real pacing waits would never end. The pacer
      // has tests of its own (test/slack/channel-pacer.test.ts).
      slackPacing: null,
    });
    built.push(scheduler);
    return scheduler;
  };
  const scheduler = build('replica-1');
  await scheduler.start();
  const user = (name: TestUserName): SlackUser => ({ teamId: TEAM_ID, userId: USERS[name].slackId });
  const watcher = createMachineWatcher({ store, now: clock.now });

  return {
    clock,
    emulator,
    slack,
    store,
    vault,
    clients,
    cron,
    logText: () => logs,
    scheduler,
    watcher,
    createScheduler: build,
    user,
    async link(name) {
      const account = emulator.state.user(USERS[name].emulatorUserId);
      if (!account) throw new Error(`the emulator seed has no user ${USERS[name].emulatorUserId}`);
      await vault.link(user(name), {
        apiKey: USERS[name].apiKey,
        account: {
          userId: account.id,
          email: account.email,
          teamId: account.accountKind === 'team' ? account.accountId : null,
        },
      });
    },
    client: (name) => clients.forCredentials({ apiKey: USERS[name].apiKey }),
    async startAndWatch(name, machine, watch) {
      await clients.forCredentials({ apiKey: USERS[name].apiKey }).machines.start(machine.id);
      return watcher.watch({
        user: user(name),
        machineId: machine.id,
        machineName: machine.name,
        messageTs: '1700000000.000001',
        initialState: 'off',
        ...watch,
      });
    },
    async advanceAndTick(ms, which = scheduler) {
      clock.advance(ms);
      await which.tick();
    },
    async close() {
      for (const each of built) await each.stop();
      await Promise.allSettled([emulator.close(), slack.close()]);
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The text of everything in a message: its fallback and its blocks, for "mentions X" assertions. */
export function messageText(args: Record<string, unknown>): string {
  return `${String(args.text ?? '')}\n${JSON.stringify(args.blocks ?? [])}`;
}
