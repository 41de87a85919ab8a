// One session of the completion benchmark: a world process (emulator and fake Slack), two replicas of
// the bot each in a process of its own on one PostgreSQL schema with their real 5 s poll timers, and
// `people` linked people. Each round gives every person one more watched machine, the machines getting
// there one after another over two poll intervals (so at every phase of a tick), and collects when
// each reply reached Slack. A round may hang one person's Paperspace requests: the others' replies
// are what it measures.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { createMachineWatcher } from '../../src/features/machines/machine-watcher.js';
import { forEachConcurrently } from '../../src/scheduler/concurrency.js';
import { openStore } from '../../src/store/store.js';
import { createKeyVault } from '../../src/vault/key-vault.js';
import { BENCH_POLL_INTERVAL_MS } from '../support/bench-bot.js';
import { type BenchAccount, benchAccounts } from '../support/bench-world.js';
import { type BenchChild, startChild } from '../support/child-process.js';
import { createBenchSchema } from '../support/postgres-schema.js';
import {
  type AddRound,
  type AwaitReplies,
  type CompletionWorldConfig,
  type CompletionWorldReady,
  CPU_QUERY,
  type CpuUsed,
  type FloorConfig,
  type FloorRound,
  type ReplicaConfig,
  type ReplicaReady,
  type RepliesArrived,
  type RoundAdded,
} from './completion-protocol.js';

export const API_LATENCY_MS = 250;
export const REPLICAS = 2;
/** Machines get there one after another over this long: every phase of the poll interval, twice. */
export const SPREAD_MS = 2 * BENCH_POLL_INTERVAL_MS;
/** How long after the last machine gets there its reply is waited for. */
const REPLY_GRACE_MS = 60_000;
/** Linking keys and making watches, this many at once (the store's pool and the vault's work). */
const SEED_CONCURRENCY = 16;

export interface SessionOptions {
  people: number;
  oneChannel: boolean;
  /** One entry per round: whether one person (the middle one) hangs during it. */
  rounds: readonly { hung: boolean }[];
}

export interface RoundResult {
  hung: boolean;
  /** Latency of each person's reply (ms), Infinity when none arrived, in person order; the hung person's is NaN. */
  latencies: number[];
  paceRefusals: number;
  /** Each replica's CPU over the round, as a share of one core. */
  replicaCpu: number[];
  loadAverage: number;
}

export interface SessionResult {
  hungPerson: number;
  rounds: RoundResult[];
  /**
   * A round with the minimal-work floor (floor-poller-process.ts) in the replicas' place, on the same
   * world: what any bot could reach here at this size.
   */
  floor: RoundResult;
}

/** Long enough to add a round's machines and make its watches before the first of them gets there. */
// Making a watch took up to 16 ms a person (1,000 in 16 s) on PostgreSQL on this loaded machine.
const transitionMs = (people: number) => SPREAD_MS + 20_000 + people * 25;

const cpuSeconds = (used: CpuUsed) => (used.user + used.system) / 1e6;

export async function runSession(options: SessionOptions): Promise<SessionResult> {
  // The full bench runs for many minutes: say where it is.
  const progress = (what: string) =>
    console.log(
      `  ${new Date().toISOString()} ${options.people} people${options.oneChannel ? ' in one channel' : ''}: ${what}`,
    );
  const accounts = benchAccounts(options.people);
  const hungPerson = Math.floor(options.people / 2);
  const transition = transitionMs(options.people);
  const schema = await createBenchSchema();
  const vaultKey = randomBytes(32);
  const store = await openStore(schema.url);
  const world = startChild(new URL('./completion-world-process.ts', import.meta.url));
  const replicas: BenchChild[] = [];
  try {
    world.send({
      people: options.people,
      transitionMs: transition,
      latencyMs: API_LATENCY_MS,
      oneChannel: options.oneChannel,
    } satisfies CompletionWorldConfig);
    const ready = await world.next<CompletionWorldReady>();
    const vault = createKeyVault({ keys: [vaultKey], store, now: Date.now });
    await forEachConcurrently(accounts, SEED_CONCURRENCY, ({ slackUser, apiKey, account }) =>
      vault.link(slackUser, { apiKey, account }),
    );
    // The schema is made (openStore above) before the replicas start, so they do not race to migrate it.
    for (let index = 0; index < REPLICAS; index += 1) {
      const replica = startChild(new URL('./replica-process.ts', import.meta.url));
      replicas.push(replica);
      replica.send({
        ...ready,
        databaseUrl: schema.url,
        replicaId: `bench-${index}`,
        vaultKey: vaultKey.toString('base64'),
      } satisfies ReplicaConfig);
      await replica.next<ReplicaReady>();
    }
    const watcher = createMachineWatcher({ store, now: Date.now });
    const rounds: RoundResult[] = [];
    /** One round: machines added, `follow` told of them, then the replies awaited and timed. */
    const runRound = async (
      round: number,
      hung: boolean,
      processes: readonly BenchChild[],
      follow: (machines: RoundAdded['machines']) => Promise<void>,
    ): Promise<RoundResult> => {
      const cpuBefore = await replicaCpu(processes);
      const startedAt = Date.now();
      world.send({
        type: 'round',
        round,
        spreadMs: SPREAD_MS,
        hungApiKey: hung ? (accounts[hungPerson]?.apiKey ?? null) : null,
      } satisfies AddRound);
      const { machines } = await world.next<RoundAdded>();
      progress('machines added');
      await follow(machines);
      progress('watches made; waiting for the replies');
      const firstThere = Math.min(...machines.map((machine) => machine.reachedAt));
      if (Date.now() > firstThere) throw new Error('making a round of watches outlasted the transition');
      const lastThere = Math.max(...machines.map((machine) => machine.reachedAt));
      const asked = machines.filter((_, person) => !(hung && person === hungPerson));
      world.send({
        type: 'replies',
        cards: asked.map(({ cardTs, channel, machineName }) => ({ cardTs, channel, machineName })),
        timeoutMs: lastThere + REPLY_GRACE_MS - Date.now(),
      } satisfies AwaitReplies);
      const { arrivedAt, paceRefusals } = await world.next<RepliesArrived>();
      progress(`${Object.keys(arrivedAt).length} of ${asked.length} replies arrived`);
      const cpuAfter = await replicaCpu(processes);
      const seconds = (Date.now() - startedAt) / 1000;
      return {
        hung,
        latencies: machines.map(({ cardTs, reachedAt }, person) => {
          if (hung && person === hungPerson) return Number.NaN;
          const at = arrivedAt[cardTs];
          return at === undefined ? Number.POSITIVE_INFINITY : at - reachedAt;
        }),
        paceRefusals,
        replicaCpu: cpuAfter.map((used, index) => (used - (cpuBefore[index] ?? 0)) / seconds),
        loadAverage: os.loadavg()[0] ?? Number.NaN,
      };
    };
    for (const [round, { hung }] of options.rounds.entries()) {
      progress(`round ${round + 1}${hung ? ' (one hung)' : ''} starts`);
      rounds.push(await runRound(round, hung, replicas, (machines) => watchAll(watcher, accounts, machines)));
    }
    // The floor takes the replicas' place, in the same world: stopped first, so only the floor polls.
    for (const replica of replicas.splice(0)) await replica.stop();
    const floors: BenchChild[] = [];
    try {
      for (let index = 0; index < REPLICAS; index += 1) {
        const floor = startChild(new URL('./floor-poller-process.ts', import.meta.url));
        floors.push(floor);
        floor.send({
          paperspace: ready.paperspace,
          slackApiUrl: ready.slackApiUrl,
          pollers: REPLICAS,
        } satisfies FloorConfig);
        await floor.next<ReplicaReady>();
      }
      progress('floor round starts');
      const floor = await runRound(options.rounds.length, false, floors, async (machines) => {
        // Split between the floor pollers as the replicas split people: each person on one of them.
        for (const [index, poller] of floors.entries()) {
          poller.send({
            type: 'floor-round',
            machines: machines.flatMap((machine, person) =>
              person % floors.length === index
                ? [{ ...machine, apiKey: accounts[person]?.apiKey ?? '' }]
                : [],
            ),
          } satisfies FloorRound);
        }
      });
      return { hungPerson, rounds, floor };
    } finally {
      for (const floor of floors) await floor.stop();
    }
  } finally {
    progress('stopping');
    for (const replica of replicas) await replica.stop();
    await world.stop();
    await store.close();
    await schema.drop();
  }
}

async function watchAll(
  watcher: ReturnType<typeof createMachineWatcher>,
  accounts: readonly BenchAccount[],
  machines: RoundAdded['machines'],
): Promise<void> {
  const people = accounts.map((account, person) => ({ account, machine: machines[person] }));
  await forEachConcurrently(people, SEED_CONCURRENCY, async ({ account, machine }) => {
    if (machine === undefined) throw new Error('the world added no machine for a person');
    await watcher.watch({
      user: account.slackUser,
      machineId: machine.machineId,
      machineName: machine.machineName,
      targetState: 'serviceready',
      channel: machine.channel,
      messageTs: machine.cardTs,
      initialState: 'starting',
    });
  });
}

async function replicaCpu(replicas: readonly BenchChild[]): Promise<number[]> {
  const used: number[] = [];
  for (const replica of replicas) {
    replica.send(CPU_QUERY);
    used.push(cpuSeconds(await replica.next<CpuUsed>()));
  }
  return used;
}
