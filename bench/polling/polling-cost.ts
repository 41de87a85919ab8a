// Paperspace calls per tick against the number of people with watches. The floor is one getMachines
// per person per tick (1.0x): fewer would leave someone unpolled, more is waste (two replicas both
// polling one person, or a call per watch). Each size runs with one replica (SQLite) and with two
// replicas sharing one PostgreSQL schema, ticking at the same moments, as a scaled-out deployment does.
// Machines stay mid-start (long transitions), so every watch stays active; the emulator's request log
// counts the calls. The fake clock only decides leases here: this counts calls, it does not time ticks
// (the completion benchmark does, on a real clock).
import { randomBytes } from 'node:crypto';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { createFakeClock, type RunningEmulator, startEmulator } from '../../tools/emulator/index.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { type BenchBot, startBenchBot } from '../support/bench-bot.js';
import {
  addStartingMachines,
  BENCH_TEAM_ID,
  type BenchAccount,
  benchAccounts,
  benchSeed,
  linkAccounts,
} from '../support/bench-world.js';
import { createBenchSchema } from '../support/postgres-schema.js';
import { requestsDuring } from '../support/request-count.js';
import { formatCount, mean } from '../support/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
/** People with watches; the largest has 10 watches each (10,000 watches), the others one each. */
const SIZES: readonly { people: number; watchesEach: number }[] = QUICK
  ? [
      { people: 10, watchesEach: 1 },
      { people: 20, watchesEach: 5 },
    ]
  : [
      { people: 100, watchesEach: 1 },
      { people: 1000, watchesEach: 1 },
      { people: 1000, watchesEach: 10 },
    ];
/** Ticks before counting, for two replicas to see each other and split the people. */
const WARM_UP_TICKS = 3;
const COUNTED_TICKS = QUICK ? 3 : 5;
const POLL_INTERVAL_MS = 5000;
const TRANSITION_MS = 24 * 60 * 60_000;
const LIST_PATH = '/machines/getMachines';
const GOAL_RATIO = 1.0;

interface Measured {
  people: number;
  watches: number;
  replicas: number;
  callsPerTick: number;
  /** People listed more than once in one tick, summed over the counted ticks. */
  doubled: number;
  /** People not listed in a tick, summed over the counted ticks. */
  missed: number;
}

async function measure(
  emulator: RunningEmulator,
  accounts: readonly BenchAccount[],
  watchesEach: number,
  replicas: 1 | 2,
): Promise<Measured> {
  const clock = createFakeClock();
  const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
  const schema = replicas === 2 ? await createBenchSchema() : undefined;
  const vaultKey = randomBytes(32);
  const bots: BenchBot[] = [];
  try {
    for (let index = 0; index < replicas; index += 1) {
      bots.push(
        await startBenchBot({
          paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
          slackApiUrl: slack.apiUrl,
          now: clock.now,
          vaultKey,
          replicaId: `bench-${index}`,
          ...(schema === undefined ? {} : { databaseUrl: schema.url }),
        }),
      );
    }
    const [first] = bots;
    if (first === undefined) throw new Error('no bench bot started');
    await linkAccounts(first.vault, accounts);
    const machineIds = addStartingMachines(emulator, accounts, watchesEach);
    let card = 0;
    for (const [person, { slackUser }] of accounts.entries()) {
      for (const machineId of machineIds[person] ?? []) {
        card += 1;
        await first.bot.watcher.watch({
          user: slackUser,
          machineId,
          machineName: machineId,
          targetState: 'serviceready',
          channel: `C0BENCH${person}`,
          messageTs: `1700000000.${String(card).padStart(6, '0')}`,
          initialState: 'starting',
        });
      }
    }
    const tickAll = () => Promise.all(bots.map((bench) => bench.bot.scheduler.tick())).then(() => undefined);
    for (let tick = 0; tick < WARM_UP_TICKS; tick += 1) {
      clock.advance(POLL_INTERVAL_MS);
      await tickAll();
    }
    const calls: number[] = [];
    let doubled = 0;
    let missed = 0;
    for (let tick = 0; tick < COUNTED_TICKS; tick += 1) {
      clock.advance(POLL_INTERVAL_MS);
      const entries = await requestsDuring(emulator, tickAll);
      calls.push(entries.length);
      const listed = entries.filter((entry) => entry.path === LIST_PATH).map((entry) => entry.userId);
      const distinct = new Set(listed);
      doubled += listed.length - distinct.size;
      missed += accounts.filter(({ account }) => !distinct.has(account.userId)).length;
    }
    return {
      people: accounts.length,
      watches: card,
      replicas,
      callsPerTick: mean(calls),
      doubled,
      missed,
    };
  } finally {
    for (const bench of bots) await bench.close();
    await slack.close();
    await schema?.drop();
  }
}

export async function runPollingCost(): Promise<BenchmarkResult> {
  const rows: ResultRow[] = [];
  for (const { people, watchesEach } of SIZES) {
    const accounts = benchAccounts(people);
    for (const replicas of [1, 2] as const) {
      const emulator = await startEmulator({ seed: benchSeed(accounts), transitionMs: TRANSITION_MS });
      try {
        const figures = await measure(emulator, accounts, watchesEach, replicas);
        const perPerson = figures.callsPerTick / people;
        const where = replicas === 1 ? '1 replica, SQLite' : '2 replicas, PostgreSQL';
        rows.push({
          metric: `calls per tick per person: ${formatCount(people)} people, ${formatCount(figures.watches)} watches, ${where}`,
          measured: `${formatCount(figures.callsPerTick)} calls (${perPerson.toFixed(2)} per person; ${figures.doubled} doubled, ${figures.missed} missed)`,
          reference: `${formatCount(people)} calls (1 per person)`,
          ratio: perPerson,
          goal: `${GOAL_RATIO.toFixed(1)}x`,
          pass: perPerson <= GOAL_RATIO + 1e-9 && figures.doubled === 0 && figures.missed === 0,
        });
      } finally {
        await emulator.close();
      }
    }
  }
  return {
    name: 'polling',
    title: 'Paperspace calls per tick, per person with watches',
    setup:
      `People with watches at ${SIZES.map((size) => `${size.people} (${size.watchesEach} watch${size.watchesEach > 1 ? 'es' : ''} each)`).join(', ')}; ` +
      `each person has their own key and their own channel. Every size runs once with one replica on SQLite ` +
      `and once with two replicas sharing one PostgreSQL schema, ticking at the same moments. After ` +
      `${WARM_UP_TICKS} warm-up ticks, ${COUNTED_TICKS} ticks are counted from the emulator's request log. ` +
      `Reference = the floor: one getMachines per person per tick.${QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''}`,
    rows,
    notes: [
      '"doubled" counts people listed by both replicas in one tick; "missed" counts people nobody polled in a tick.',
      'Machines stay mid-start, so no show (event log) calls are made: those come only when a watch may end.',
    ],
  };
}
