// Completion detection as a person feels it: from the moment a machine reaches its target state to the
// moment the "gpu-1 is ready" reply reaches Slack. Real clock, two replicas of the bot on one PostgreSQL
// schema with their real 5 s poll timers, a Paperspace emulator answering every call after 250 ms, and
// the production Slack pacing (about one message a second per channel). One watch per person; the
// machines get there one after another over two poll intervals. The reference is the goal's own bound:
// one poll interval (the wait for the next tick) + one API latency + 1 s. Three shapes
// (completion-session.ts runs them):
// - every person in their own channel, at 1,000 and 10,000 people (10,000 only in the full bench);
// - the same people with one of them hung (every Paperspace request of theirs unanswered): the others'
//   p99 against the round without the hang, in the same session (same processes, same load);
// - 1,000 people waiting in one channel, where Slack takes about one message a second: the bound + 2 s.
import type { BenchmarkResult, ResultRow } from '../report.js';
import { BENCH_POLL_INTERVAL_MS } from '../support/bench-bot.js';
import { formatCount, formatMs, percentile } from '../support/stats.js';
import {
  API_LATENCY_MS,
  REPLICAS,
  type RoundResult,
  runSession,
  type SessionOptions,
  SPREAD_MS,
} from './completion-session.js';

const QUICK = process.env.BENCH_QUICK === '1';
const GOAL_MS = BENCH_POLL_INTERVAL_MS + API_LATENCY_MS + 1000;
const ONE_CHANNEL_GOAL_MS = GOAL_MS + 2000;
const HUNG_GOAL_RATIO = 1.1;
const BOTH_ROUNDS = [{ hung: false }, { hung: true }] as const;
const SESSIONS: readonly SessionOptions[] = QUICK
  ? [
      { people: 20, oneChannel: false, rounds: BOTH_ROUNDS },
      { people: 20, oneChannel: true, rounds: [{ hung: false }] },
    ]
  : [
      { people: 1000, oneChannel: false, rounds: BOTH_ROUNDS },
      { people: 10_000, oneChannel: false, rounds: BOTH_ROUNDS },
      { people: 1000, oneChannel: true, rounds: [{ hung: false }] },
    ];

interface Summary {
  p50: number;
  p99: number;
  arrived: number;
  expected: number;
}

/** Latencies of the people who count (NaN marks the hung person), a missing reply counting as infinitely late. */
function summarize(latencies: readonly number[], leaveOut?: number): Summary {
  const counted = latencies.filter((latency, person) => !Number.isNaN(latency) && person !== leaveOut);
  return {
    p50: percentile(counted, 50),
    p99: percentile(counted, 99),
    arrived: counted.filter(Number.isFinite).length,
    expected: counted.length,
  };
}

const describe = ({ p50, p99, arrived, expected }: Summary): string => {
  const late = (ms: number) => (Number.isFinite(ms) ? formatMs(ms) : 'no reply');
  const missing =
    arrived === expected
      ? ''
      : `; ${formatCount(expected - arrived)} of ${formatCount(expected)} replies missing`;
  return `p50 ${late(p50)}, p99 ${late(p99)}${missing}`;
};

const sizeOf = (people: number, oneChannel: boolean) =>
  `${people.toLocaleString('en-US')} people${oneChannel ? ' in one channel' : ''}`;

/**
 * Why a row's goal is out of this machine's reach, when the minimal-work floor, polling the same world
 * in the same session, misses the goal's bound itself; undefined when the floor meets it.
 */
function beyondFloor(floor: Summary, goalMs: number): string | undefined {
  if (floor.arrived === floor.expected && floor.p99 <= goalMs) return undefined;
  return `the minimal-work floor's own ${describe(floor)}`;
}

function boundRow(
  metric: string,
  summary: Summary,
  goalMs: number,
  reference: string,
  floor: Summary,
): ResultRow {
  const pass = summary.arrived === summary.expected && summary.p99 <= goalMs;
  const outOfReach = pass ? undefined : beyondFloor(floor, goalMs);
  return {
    metric,
    measured: describe(summary),
    reference: `${formatMs(goalMs)} (${reference})`,
    ratio: summary.p99 / goalMs,
    goal: `p99 <= ${formatMs(goalMs)}`,
    pass,
    ...(outOfReach === undefined ? {} : { outOfReach }),
  };
}

function sessionRows(
  options: SessionOptions,
  hungPerson: number,
  rounds: RoundResult[],
  floorRound: RoundResult,
): ResultRow[] {
  const size = sizeOf(options.people, options.oneChannel);
  const plain = rounds.find((round) => !round.hung);
  const hung = rounds.find((round) => round.hung);
  const floor = summarize(floorRound.latencies);
  const goalMs = options.oneChannel ? ONE_CHANNEL_GOAL_MS : GOAL_MS;
  const bound = options.oneChannel
    ? 'poll interval + API latency + 1 s, + 2 s'
    : 'poll interval + API latency + 1 s';
  const rows: ResultRow[] = [
    {
      metric: `the minimal-work floor, ${size} (for reference)`,
      measured: describe(floor),
      reference: `${formatMs(goalMs)} (${bound})`,
      ratio: floor.p99 / goalMs,
      goal: '',
    },
  ];
  if (plain !== undefined) {
    rows.push(
      boundRow(`machine there -> reply in Slack, ${size}`, summarize(plain.latencies), goalMs, bound, floor),
    );
  }
  if (plain !== undefined && hung !== undefined) {
    const others = summarize(hung.latencies);
    const without = summarize(plain.latencies, hungPerson);
    const pass = others.arrived === others.expected && others.p99 / without.p99 <= HUNG_GOAL_RATIO;
    // Measured against the round without the hang, which itself needs the floor to reach the bound.
    const outOfReach = pass ? undefined : beyondFloor(floor, GOAL_MS);
    rows.push(
      boundRow(
        `machine there -> reply in Slack, ${size}, one of them hung: the others`,
        others,
        GOAL_MS,
        'poll interval + API latency + 1 s',
        floor,
      ),
      {
        metric: `the others' p99 with one person hung against without, ${size}`,
        measured: `${formatMs(others.p99)} (with)`,
        reference: `${formatMs(without.p99)} (the same people, round without the hang)`,
        ratio: others.p99 / without.p99,
        goal: `<= ${HUNG_GOAL_RATIO}x`,
        pass,
        ...(outOfReach === undefined ? {} : { outOfReach }),
      },
    );
  }
  return rows;
}

function roundNote(options: SessionOptions, round: RoundResult, who = 'the replicas'): string {
  const cpu = round.replicaCpu.map((share) => `${(share * 100).toFixed(0)}%`).join(' and ');
  const refusals =
    round.paceRefusals > 0
      ? `; ${formatCount(round.paceRefusals)} posts refused with 429 (over the channel's pace)`
      : '';
  return (
    `${sizeOf(options.people, options.oneChannel)}${round.hung ? ', one hung' : ''}${who === 'the replicas' ? '' : `, ${who}`}: ` +
    `${who} used ${cpu} of a core ` +
    `over the round; load average ${round.loadAverage.toFixed(1)} at its end${refusals}.`
  );
}

export async function runCompletionLatency(): Promise<BenchmarkResult> {
  const rows: ResultRow[] = [];
  const notes: string[] = [];
  for (const options of SESSIONS) {
    const { hungPerson, rounds, floor } = await runSession(options);
    rows.push(...sessionRows(options, hungPerson, rounds, floor));
    notes.push(...rounds.map((round) => roundNote(options, round)), roundNote(options, floor, 'the floor'));
  }
  return {
    name: 'completion',
    title: 'Completion detection on a real clock',
    setup:
      `One watch per person; ${REPLICAS} replicas of the bot, each in a process of its own, on one PostgreSQL schema, ` +
      `with their real ${BENCH_POLL_INTERVAL_MS / 1000} s poll timers; ${API_LATENCY_MS} ms emulator latency; ` +
      `production Slack pacing (about one message a second per channel). The people's machines get there one after ` +
      `another over ${SPREAD_MS / 1000} s (every phase of a tick). The emulator and the fake Slack run in a process ` +
      `apart from the bots. Latency = a reply for the card seen accepted at the fake Slack (sampled every 20 ms; a ` +
      `post threaded under the card, or a post in its channel naming its machine, so a coalesced completion counts ` +
      `for every machine it names) minus the moment the emulator moved the machine to serviceready; a reply ` +
      `missing 60 s after the last machine got there counts as infinitely late. "One hung": the middle person's ` +
      `Paperspace requests hang unanswered for the whole round; the row compares the others with the round just ` +
      `before, in the same processes. Then the minimal-work floor takes the replicas' place for one more round on ` +
      `the same world (bench/completion/floor-poller-process.ts: two processes that each list their half of the ` +
      `people's machines every interval, as many at once as the bot may, and post one thread reply when a list ` +
      `shows the machine there; no store, no cards, no schema parsing): a row the floor itself misses reads ` +
      `"out of reach" with the floor's figures instead of FAIL, and still does not pass.` +
      (QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''),
    rows,
    notes: [
      'A machine that gets there just after a tick waits for the next one: the p50 floor is about half a poll interval, the p99 floor about a whole one.',
      ...notes,
    ],
  };
}
