// Several bots side by side, as a scaled-out deployment runs them: each one is a whole startBot (its own
// Slack app on port 0, scheduler, cron engine, Paperspace connection pool and database pool), and all of
// them share ONE PostgreSQL schema, one Paperspace emulator and one fake Slack Web API. The clock is
// fake and shared, and nothing polls or fires on its own: a test ticks and fires replicas explicitly,
// one at a time or all at the same moment.
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { startBot } from '../../src/bot.js';
import type { MachineWatcher } from '../../src/features/machines/machine-watcher.js';
import { createLogger } from '../../src/logger.js';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import { manualTimers, type Scheduler } from '../../src/scheduler/scheduler.js';
import type { SlackUser } from '../../src/store/slack-user.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { Watch } from '../../src/store/watch-types.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';
import { createPaperspaceClientFactory } from '../../src/vault/paperspace-clients.js';
import {
  createFakeClock,
  type FakeClock,
  type RunningEmulator,
  startEmulator,
} from '../../tools/emulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { createManualCron, type ManualCron } from '../support/manual-cron.js';
import {
  createSlackRequests,
  type SlackRequest,
  type SlackRequests,
  type SlackResponse,
  send,
} from '../support/slack-requests.js';
import { BOT_TOKEN, SIGNING_SECRET, TEAM_ID, type TestUserName, USERS } from '../support/test-bot.js';

export const POLL_INTERVAL_MS = 5000;
/** How long the emulator's starting state lasts: a machine started now is ready one poll later. */
export const TRANSITION_MS = 2000;
/** The scheduler's lease on a watch: three poll intervals, but never under 30 s. */
export const LEASE_MS = Math.max(30_000, 3 * POLL_INTERVAL_MS);

interface LogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

export interface Replica {
  readonly id: string;
  /** Where this replica's Slack app listens: signed requests go to `${url}/slack/events`. */
  readonly url: string;
  readonly scheduler: Scheduler;
  /** What this replica's listeners ask to follow a machine. */
  readonly watcher: MachineWatcher;
  /** This replica's own connection pool to the shared schema. */
  readonly store: Store;
  /** Its reminders fire from here, when the cluster runs them. */
  readonly cron: ManualCron;
  /** False once crashed: it neither ticks nor fires again. */
  readonly alive: boolean;
  /** Everything this replica logged. */
  logLines(): LogLine[];
  /**
   * Stalls this replica's watch completions just before they reach the database, as a long pause
   * (garbage collection, a slow network) stalls a replica mid-tick, until the hold is released.
   */
  holdCompletions(): CompletionHold;
  /**
   * Stalls this replica just after each watch completion is written, before the outcome is posted.
   * Crashing while stalled is dying between the two: the completions are in the database, unposted.
   */
  holdAfterCompletions(): CompletionHold;
  /**
   * Dies as a killed process does: its database connections drop first, so it gives back none of the
   * leases it holds, and it never ticks or fires again. The graceful stop that follows finds no
   * database to release the leases in (it logs that) and takes the Slack app and HTTP pool down.
   */
  crash(): Promise<void>;
  /** Stops gracefully, as on SIGTERM: the bot gives its leases back, then its database pool closes. */
  stop(): Promise<void>;
}

export interface CompletionHold {
  /** Completions stalled so far. */
  waiting(): number;
  /** Lets the stalled completions (and later ones) through. */
  release(): void;
}

/** A demo user's machine with its card in a channel: what a Start click posts and then watches. */
export interface CardedMachine {
  id: string;
  name: string;
  owner: TestUserName;
  channel: string;
  /** The card the watch updates. */
  cardTs: string;
}

export interface ReplicaCluster {
  clock: FakeClock;
  emulator: RunningEmulator;
  slack: FakeSlack;
  replicas: Replica[];
  user(name: TestUserName): SlackUser;
  /** Signed Slack requests (commands, clicks) as Slack would send them to any replica. */
  requests: SlackRequests;
  /** Delivers a signed request to one replica, as Slack's load balancer would. */
  send(replica: Replica, request: SlackRequest): Promise<SlackResponse>;
  /** Links a demo user's key into the shared vault, through the first replica. */
  link(name: TestUserName): Promise<void>;
  /** A Paperspace client with the demo user's key, to start machines as a listener would. */
  client(name: TestUserName): PaperspaceClient;
  /**
   * Adds a machine that is off, owned by `owner` and named from `namePrefix`, with its card at `cardTs`
   * in `channel` (shown to the fake Slack, so the watch may update it).
   */
  addCardedMachine(owner: TestUserName, namePrefix: string, channel: string, cardTs: string): CardedMachine;
  /**
   * What a Start button does, through `via`: the owner's key starts the machine, then the replica
   * watches it until serviceready (the emulator's stock Ubuntu template is headless: it rests there).
   */
  startAndWatch(machine: CardedMachine, via: Replica): Promise<Watch>;
  /** One tick on every live replica, all started at the same moment. */
  tickAll(): Promise<void>;
  /** Fires the due reminders on every live replica at the same moment; answers how many each fired. */
  runDueReminders(): Promise<number[]>;
  close(): Promise<void>;
}

export interface ReplicaClusterOptions {
  /** The PostgreSQL schema every replica connects to (useTestSchema's url). */
  databaseUrl: string;
  replicaIds: readonly string[];
  /**
   * Post at Slack's pace (the production pacer, on the real clock) against the fake Slack's per-channel
   * limit. Unset: unpaced, as the fake clock would not move real pacing waits.
   */
  pacedLikeSlack?: boolean;
}

interface RunningReplica extends Replica {
  vault: KeyVault;
}

function capturingLogger() {
  let raw = '';
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        raw += chunk.toString('utf8');
        callback();
      },
    }),
  });
  const lines = () =>
    raw
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LogLine);
  return { logger, lines };
}

interface Hold {
  when: 'before' | 'after';
  waiting: number;
  released: Promise<void>;
  letThrough: () => void;
  /** What a crash does to completions stalled after their write: they never get to post. */
  cutOff: (reason: Error) => void;
}

/**
 * The store as the bot sees it, with a switch that stalls `watches.complete` just before or just after
 * its write (see holdCompletions and holdAfterCompletions).
 */
function withCompletionHold(store: Store): {
  store: Store;
  hold(when: Hold['when']): CompletionHold;
  releaseAll(cause: 'stop' | 'crash'): void;
} {
  let held: Hold | undefined;
  const watches: Store['watches'] = {
    ...store.watches,
    async complete(id, completion) {
      const current = held;
      if (current?.when === 'before') {
        current.waiting += 1;
        await current.released;
      }
      const won = await store.watches.complete(id, completion);
      if (current?.when === 'after') {
        current.waiting += 1;
        await current.released;
      }
      return won;
    },
  };
  return {
    store: { ...store, watches },
    hold(when) {
      let letThrough: () => void = () => undefined;
      let cutOff: (reason: Error) => void = () => undefined;
      const released = new Promise<void>((resolve, reject) => {
        letThrough = resolve;
        cutOff = reject;
      });
      // Only waited on after a cut-off; keeps an unwaited rejection from failing the test run.
      released.catch(() => undefined);
      const current: Hold = { when, waiting: 0, released, letThrough, cutOff };
      held = current;
      return {
        waiting: () => current.waiting,
        release() {
          if (held === current) held = undefined;
          current.letThrough();
        },
      };
    },
    // A stop waits for the tick under way, which a forgotten hold would keep waiting forever. A crash
    // ends completions stalled after their write with an error, so the dead replica posts nothing.
    releaseAll(cause) {
      if (held?.when === 'after' && cause === 'crash') held.cutOff(new Error('the replica crashed'));
      else held?.letThrough();
      held = undefined;
    },
  };
}

export async function startReplicaCluster(options: ReplicaClusterOptions): Promise<ReplicaCluster> {
  if (options.replicaIds.length === 0)
    throw new RangeError('a replica cluster needs at least one replica id');
  const clock = createFakeClock();
  const emulator = await startEmulator({ transitionMs: TRANSITION_MS, now: clock.now });
  const slack = await startFakeSlack({
    teamId: TEAM_ID,
    users: Object.values(USERS).map((user) => ({ id: user.slackId, tz: 'Europe/Amsterdam' })),
  }).catch(async (error: unknown) => {
    await emulator.close();
    throw error;
  });
  // Every replica is configured with the same VAULT_KEY, so a key linked through one opens on all.
  const vaultKey = randomBytes(32);
  const opened: Store[] = [];
  const replicas: RunningReplica[] = [];

  const startReplica = async (id: string, store: Store): Promise<RunningReplica> => {
    const { logger, lines } = capturingLogger();
    const vault = createKeyVault({ keys: [vaultKey], store, now: clock.now });
    const cron = createManualCron(clock.now);
    const completions = withCompletionHold(store);
    const bot = await startBot({
      slack: { mode: 'http', botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl },
      paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
      port: 0,
      store: completions.store,
      vault,
      logger,
      // Unpaced unless asked: the fake clock would not move real pacing waits.
      scheduler: {
        pollIntervalMs: POLL_INTERVAL_MS,
        timers: manualTimers,
        cron,
        replicaId: id,
        ...(options.pacedLikeSlack ? {} : { slackPacing: null }),
      },
      now: clock.now,
    });
    let alive = true;
    return {
      id,
      url: `http://127.0.0.1:${bot.port}`,
      scheduler: bot.scheduler,
      watcher: bot.watcher,
      store,
      cron,
      get alive() {
        return alive;
      },
      logLines: lines,
      holdCompletions: () => completions.hold('before'),
      holdAfterCompletions: () => completions.hold('after'),
      async crash() {
        if (!alive) return;
        alive = false;
        await store.close();
        completions.releaseAll('crash');
        await bot.stop();
      },
      async stop() {
        if (!alive) return;
        alive = false;
        completions.releaseAll('stop');
        await bot.stop();
        await store.close();
      },
      vault,
    };
  };

  const closeShared = () => Promise.allSettled([emulator.close(), slack.close()]);
  try {
    // Replicas of a fresh deployment start together: they open (and migrate) the empty schema at once.
    const stores = await Promise.allSettled(
      options.replicaIds.map(async (id) => {
        const store = await openStore(options.databaseUrl, { now: clock.now });
        opened.push(store);
        return { id, store };
      }),
    );
    const started = await Promise.allSettled(
      stores.map(async (result) => {
        if (result.status === 'rejected') throw result.reason;
        const replica = await startReplica(result.value.id, result.value.store);
        replicas.push(replica);
        return replica;
      }),
    );
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  } catch (error) {
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    const unowned = opened.filter((store) => !replicas.some((replica) => replica.store === store));
    await Promise.allSettled(unowned.map((store) => store.close()));
    await closeShared();
    throw error;
  }
  if (!options.pacedLikeSlack) {
    slack.relax(
      'updatePace',
      'unpaced replicas on the fake clock update every finished card at once; the paced pacer keeps Tier 3 (card-updates.test.ts)',
    );
  }
  // In the order of replicaIds, not the order in which they finished starting.
  replicas.sort((x, y) => options.replicaIds.indexOf(x.id) - options.replicaIds.indexOf(y.id));

  // At least one: checked before anything started.
  const first = replicas[0] as RunningReplica;
  const clients = createPaperspaceClientFactory({
    vault: first.vault,
    baseUrl: emulator.url,
    graphqlUrl: emulator.graphqlUrl,
    now: clock.now,
  });
  const user = (name: TestUserName): SlackUser => ({ teamId: TEAM_ID, userId: USERS[name].slackId });
  const live = () => replicas.filter((replica) => replica.alive);

  return {
    clock,
    emulator,
    slack,
    replicas,
    user,
    requests: createSlackRequests({
      signingSecret: SIGNING_SECRET,
      responseUrl: slack.responseUrl,
      slack,
      teamId: TEAM_ID,
      userId: USERS.ada.slackId,
      botUserId: slack.botUserId,
    }),
    send: (replica, request) => send(replica.url, request),
    async link(name) {
      const account = emulator.state.user(USERS[name].emulatorUserId);
      if (!account) throw new Error(`the emulator seed has no user ${USERS[name].emulatorUserId}`);
      await first.vault.link(user(name), {
        apiKey: USERS[name].apiKey,
        account: {
          userId: account.id,
          email: account.email,
          teamId: account.accountKind === 'team' ? account.accountId : null,
        },
      });
    },
    client: (name) => clients.forCredentials({ apiKey: USERS[name].apiKey }),
    addCardedMachine(owner, namePrefix, channel, cardTs) {
      const [id] = emulator.state.addMachines(1, { owner: USERS[owner].emulatorUserId, namePrefix });
      const name = id === undefined ? undefined : emulator.state.machine(id)?.name;
      if (id === undefined || name === undefined) throw new Error('the emulator did not add a machine');
      slack.showMessage(channel, cardTs);
      return { id, name, owner, channel, cardTs };
    },
    async startAndWatch(machine, via) {
      await clients.forCredentials({ apiKey: USERS[machine.owner].apiKey }).machines.start(machine.id);
      return via.watcher.watch({
        user: user(machine.owner),
        machineId: machine.id,
        machineName: machine.name,
        targetState: 'serviceready',
        channel: machine.channel,
        messageTs: machine.cardTs,
        initialState: 'off',
      });
    },
    async tickAll() {
      await Promise.all(live().map((replica) => replica.scheduler.tick()));
    },
    runDueReminders: () => Promise.all(live().map((replica) => replica.cron.runDue())),
    async close() {
      for (const replica of live()) await replica.stop();
      await closeShared();
    },
  };
}
