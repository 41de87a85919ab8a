// Paperspace calls per tick against the number of people with watches. The floor is one getMachines
// per person per tick (1.0x): fewer would leave someone unpolled, more is waste (two replicas both
// polling one person, or a call per watch). Each size runs with one replica (SQLite) and with two
// replicas sharing one PostgreSQL schema, ticking at the same moments, as a scaled-out deployment does.
// Machines stay mid-start (long transitions), so every watch stays active; the emulator's request log
// counts the calls. The fake clock only decides leases here: this counts calls, it does not time ticks
// (the completion benchmark does, on a real clock).
// A v1 row per size (one replica, SQLite) starts the machines through v1 so each watch follows its
// start's event, as the bot's own starts do: its floor is one list per person per tick plus the
// watches' event reads, one per watch every EVENT_FOLLOW_TICKS ticks (src/features/watches/watch-poller.ts).
import { randomBytes } from 'node:crypto';
import type { Dialect } from '../../src/paperspace/dialect.js';
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
/** Contract runs with one and two replicas; v1 with one (its difference is per watch, not per replica). */
const RUNS: readonly { replicas: 1 | 2; dialect: Dialect }[] = [
  { replicas: 1, dialect: 'contract' },
  { replicas: 2, dialect: 'contract' },
  { replicas: 1, dialect: 'v1' },
];
/** Ticks before counting, for two replicas to see each other and split the people. */
const WARM_UP_TICKS = 3;
const COUNTED_TICKS = QUICK ? 3 : 5;
const POLL_INTERVAL_MS = 5000;
const TRANSITION_MS = 24 * 60 * 60_000;
const LIST_PATH: Record<Dialect, string> = { contract: '/machines/getMachines', v1: '/v1/machines' };
const GOAL_RATIO = 1.0;
/** The poller reads a v1 watch's event once per this many ticks; v1 counts one whole period of them. */
const EVENT_FOLLOW_TICKS = 6;

interface Measured {
  people: number;
  watches: number;
  replicas: number;
  callsPerTick: number;
  /** Of those, reads of one watch's event (`GET /v1/machine-events/{id}`). */
  eventReadsPerTick: number;
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
  dialect: Dialect,
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
          paperspace: {
            apiUrl: dialect === 'v1' ? `${emulator.url}/v1` : emulator.url,
            graphqlUrl: emulator.graphqlUrl,
          },
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
    const machineIds = addStartingMachines(
      emulator,
      accounts,
      watchesEach,
      dialect === 'v1' ? 'off' : 'starting',
    );
    let card = 0;
    for (const [person, { slackUser, apiKey }] of accounts.entries()) {
      for (const machineId of machineIds[person] ?? []) {
        card += 1;
        const eventId = dialect === 'v1' ? await startThroughV1(emulator, apiKey, machineId) : null;
        await first.bot.watcher.watch({
          user: slackUser,
          machineId,
          machineName: machineId,
          targetState: 'serviceready',
          channel: `C0BENCH${person}`,
          messageTs: `1700000000.${String(card).padStart(6, '0')}`,
          initialState: 'starting',
          eventId,
        });
      }
    }
    const tickAll = () => Promise.all(bots.map((bench) => bench.bot.scheduler.tick())).then(() => undefined);
    for (let tick = 0; tick < WARM_UP_TICKS; tick += 1) {
      clock.advance(POLL_INTERVAL_MS);
      await tickAll();
    }
    const calls: number[] = [];
    const eventReads: number[] = [];
    let doubled = 0;
    let missed = 0;
    const counted = dialect === 'v1' ? EVENT_FOLLOW_TICKS : COUNTED_TICKS;
    for (let tick = 0; tick < counted; tick += 1) {
      clock.advance(POLL_INTERVAL_MS);
      const entries = await requestsDuring(emulator, tickAll);
      calls.push(entries.length);
      eventReads.push(entries.filter((entry) => entry.path.startsWith('/v1/machine-events/')).length);
      const listed = entries
        .filter((entry) => entry.path === LIST_PATH[dialect])
        .map((entry) => entry.userId);
      const distinct = new Set(listed);
      doubled += listed.length - distinct.size;
      missed += accounts.filter(({ account }) => !distinct.has(account.userId)).length;
    }
    return {
      people: accounts.length,
      watches: card,
      replicas,
      callsPerTick: mean(calls),
      eventReadsPerTick: mean(eventReads),
      doubled,
      missed,
    };
  } finally {
    for (const bench of bots) await bench.close();
    await slack.close();
    await schema?.drop();
  }
}

/** Starts a machine as the bot would in v1 and returns the id of the start's event. */
async function startThroughV1(emulator: RunningEmulator, apiKey: string, machineId: string): Promise<string> {
  const response = await fetch(`${emulator.url}/v1/machines/${machineId}/start`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const body = (await response.json()) as { event?: { id?: string } };
  if (!response.ok || body.event?.id === undefined) {
    throw new Error(`v1 start of ${machineId} answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return body.event.id;
}

export async function runPollingCost(): Promise<BenchmarkResult> {
  const rows: ResultRow[] = [];
  for (const { people, watchesEach } of SIZES) {
    const accounts = benchAccounts(people);
    for (const { replicas, dialect } of RUNS) {
      // A tick can be every person's list plus, on v1, every watch's event read (1,000 + 10,000).
      const requestLogLimit = 2 * people * (watchesEach + 1);
      const emulator = await startEmulator({
        seed: benchSeed(accounts),
        transitionMs: TRANSITION_MS,
        requestLogLimit,
      });
      try {
        const figures = await measure(emulator, accounts, watchesEach, replicas, dialect);
        const perPerson = figures.callsPerTick / people;
        // v1's floor adds the watches' event reads, one per watch per EVENT_FOLLOW_TICKS ticks.
        const floor = dialect === 'v1' ? people + figures.watches / EVENT_FOLLOW_TICKS : people;
        const ratio = figures.callsPerTick / floor;
        const where = `${replicas === 1 ? '1 replica, SQLite' : '2 replicas, PostgreSQL'}${dialect === 'v1' ? ', v1' : ''}`;
        const events =
          dialect === 'v1' ? `; ${formatCount(figures.eventReadsPerTick)} of them event reads` : '';
        rows.push({
          metric: `calls per tick per person: ${formatCount(people)} people, ${formatCount(figures.watches)} watches, ${where}`,
          measured: `${formatCount(figures.callsPerTick)} calls (${perPerson.toFixed(2)} per person${events}; ${figures.doubled} doubled, ${figures.missed} missed)`,
          reference:
            dialect === 'v1'
              ? `${formatCount(floor)} calls (1 list per person + 1 event read per watch per ${EVENT_FOLLOW_TICKS} ticks)`
              : `${formatCount(people)} calls (1 per person)`,
          ratio,
          goal: `${GOAL_RATIO.toFixed(1)}x`,
          pass: ratio <= GOAL_RATIO + 1e-9 && figures.doubled === 0 && figures.missed === 0,
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
      `and once with two replicas sharing one PostgreSQL schema, ticking at the same moments; then once in ` +
      `v1 with one replica, the machines started through v1 so each watch follows its start's event. After ` +
      `${WARM_UP_TICKS} warm-up ticks, ${COUNTED_TICKS} ticks (v1: ${EVENT_FOLLOW_TICKS}, one period of event reads) are counted from the emulator's request log. ` +
      `Reference = the floor: one getMachines per person per tick.${QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''}`,
    rows,
    notes: [
      '"doubled" counts people listed by both replicas in one tick; "missed" counts people nobody polled in a tick.',
      'Machines stay mid-start, so no show (event log) calls are made: those come only when a watch may end.',
      `v1: before event reads were spaced out, each watch read its event every tick (1 list per person + 1 per watch).`,
    ],
  };
}
