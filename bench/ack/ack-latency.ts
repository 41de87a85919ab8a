// Ack and reply latency under a burst: 1,000 signed `/ps list` commands, then 1,000 Usage clicks, all
// sent at once, to the real bot and to the minimal-work floor (floor-app.ts: acks, makes the one
// Paperspace call, posts one response_url reply), each in its own process, while Paperspace (the
// emulator) answers every call after 250 ms. The time to the HTTP response is the time to the ack;
// the reply is timed to when it arrives at the fake Slack. The world they call (emulator and fake
// Slack) runs in a process of its own, so that this process only sends and times.
import { loadavg, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { encodeMachineRef } from '../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../src/slack/ids.js';
import {
  createSlackRequests,
  type SlackRequest,
  type SlackRequests,
} from '../../test/support/slack-requests.js';
import { DEMO_SEED } from '../../tools/emulator/index.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { BENCH_SIGNING_SECRET } from '../support/bench-bot.js';
import { BENCH_TEAM_ID, type BenchAccount } from '../support/bench-world.js';
import { type BenchChild, startChild } from '../support/child-process.js';
import { formatCount, formatKb, formatMs, percentile } from '../support/stats.js';
import {
  type AckServerConfig,
  type AckServerReady,
  type AwaitReplies,
  type RepliesArrived,
  type SlackWorldConfig,
  type SlackWorldReady,
  USAGE_QUERY,
  type UsageSoFar,
} from './ack-protocol.js';

const QUICK = process.env.BENCH_QUICK === '1';
/** Requests of one burst, all sent at once. */
const CONCURRENCY = QUICK ? 100 : 1000;
/** Measured bursts per case and server, after one warm-up burst whose figures are dropped. */
const ROUNDS = QUICK ? 1 : 3;
const EMULATOR_LATENCY_MS = 250;
/** Goal: no ack slower than this (Slack gives up after 3 s; a person notices well before). */
const ACK_LIMIT_MS = 1000;
/** Goals, as ratios to the floor measured in the same run. */
const REPLY_P99_LIMIT = 1.2;
const CPU_LIMIT = 2;
const HEAP_ALLOCATION_LIMIT = 2;
/** Goal: Paperspace calls per request, counted from the emulator's request log. */
const CALLS_PER_REQUEST = 1;
/** Scheduling priority of the emulator and fake Slack process (0 normal, 19 lowest). */
const WORLD_NICENESS = 10;
/** How long the bot may take to post all replies of a round before the benchmark gives up. */
const REPLY_TIMEOUT_MS = 60_000;
/** A server is idle once it used less CPU than this over one IDLE_WINDOW_MS (5% of a core). */
const IDLE_CPU_MS = 5;
const IDLE_WINDOW_MS = 100;
/** A server still busy after this long is counted as it stands (a profiler, say, never lets it idle). */
const IDLE_WAIT_LIMIT_MS = 30_000;

type Case = 'list' | 'click';
type Target = 'floor' | 'bot';
const TARGETS: readonly Target[] = ['floor', 'bot'];

/** Demo people of the emulator's built-in seed, each with a machine of their own to click Usage on. */
const DEMO_PEOPLE = [
  { slackId: 'U0ADA', emulatorUserId: 'u1ada', machine: { id: 'psada001', name: 'ada-workstation' } },
  { slackId: 'U0MAYA', emulatorUserId: 'u1maya', machine: { id: 'psorb001', name: 'maya-trainer' } },
  { slackId: 'U0SAM', emulatorUserId: 'u1sam', machine: { id: 'psorb003', name: 'sam-desktop' } },
] as const;

function demoAccounts(): BenchAccount[] {
  return DEMO_PEOPLE.map((person) => {
    const user = DEMO_SEED.users.find((candidate) => candidate.id === person.emulatorUserId);
    if (!user?.apiKey)
      throw new Error(`the emulator's demo seed has no user ${person.emulatorUserId} with a key`);
    return {
      slackUser: { teamId: BENCH_TEAM_ID, userId: person.slackId },
      apiKey: user.apiKey,
      account: { userId: user.id, email: user.email, teamId: user.team ?? null },
    };
  });
}

/** One round's requests, signed before the clock starts, spread over the demo people. */
function batch(requests: SlackRequests, kind: Case): SlackRequest[] {
  return Array.from({ length: CONCURRENCY }, (_, index) => {
    const person = DEMO_PEOPLE[index % DEMO_PEOPLE.length] ?? DEMO_PEOPLE[0];
    return kind === 'list'
      ? requests.slashCommand({ text: 'list', userId: person.slackId })
      : requests.blockAction({
          actionId: ActionId.machineUsage,
          value: encodeMachineRef(person.machine),
          userId: person.slackId,
        });
  });
}

/** Wall-clock milliseconds that the child processes read the same way. */
const wallClock = () => performance.timeOrigin + performance.now();

interface Sent {
  ackMs: number[];
  /** When each request left (wallClock), by its response_url id. */
  sentAt: Map<string, number>;
  failures: string[];
}

async function sendAll(pool: Pool, requests: readonly SlackRequest[]): Promise<Sent> {
  const sentAt = new Map<string, number>();
  const failures: string[] = [];
  const ackMs = await Promise.all(
    requests.map(async (request) => {
      const started = wallClock();
      try {
        const response = await pool.request({
          path: request.path,
          method: 'POST',
          headers: request.headers,
          body: request.body,
        });
        await response.body.dump();
        if (response.statusCode !== 200) failures.push(`HTTP ${response.statusCode}`);
        // Only an acked request is owed a reply.
        else if (request.responseUrlId !== undefined) sentAt.set(request.responseUrlId, started);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
      return wallClock() - started;
    }),
  );
  return { ackMs, sentAt, failures };
}

/** Waits until every acked request got its reply through response_url (or REPLY_TIMEOUT_MS passed). */
async function repliesOf(
  world: BenchChild,
  sentAt: ReadonlyMap<string, number>,
): Promise<{ replyMs: number[]; missing: number; paperspaceCalls: number }> {
  world.send({
    type: 'replies',
    ids: [...sentAt.keys()],
    timeoutMs: REPLY_TIMEOUT_MS,
  } satisfies AwaitReplies);
  const { arrivedAt, paperspaceCalls } = await world.next<RepliesArrived>();
  const replyMs = [...sentAt].flatMap(([id, started]) => {
    const arrived = arrivedAt[id];
    return arrived === undefined ? [] : [arrived - started];
  });
  return { replyMs, missing: sentAt.size - replyMs.length, paperspaceCalls };
}

async function startServer(config: AckServerConfig): Promise<{ child: BenchChild; url: string }> {
  const child = startChild(new URL('./ack-server-process.ts', import.meta.url));
  child.send(config);
  const { url } = await child.next<AckServerReady>();
  return { child, url };
}

interface Usage {
  /** CPU time (user + system, ms) the process has used so far. */
  cpuMs: number;
  /** Bytes it has allocated on V8's heap so far. */
  heapBytes: number;
}

async function usageOf(child: BenchChild): Promise<Usage> {
  child.send(USAGE_QUERY);
  const { cpu, heapAllocatedBytes } = await child.next<UsageSoFar>();
  return { cpuMs: (cpu.user + cpu.system) / 1000, heapBytes: heapAllocatedBytes };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What the process has used once it has gone idle: its work for the round, end to end. */
async function usageWhenIdle(child: BenchChild): Promise<Usage> {
  let last = await usageOf(child);
  const giveUpAt = performance.now() + IDLE_WAIT_LIMIT_MS;
  for (;;) {
    await pause(IDLE_WINDOW_MS);
    const now = await usageOf(child);
    if (now.cpuMs - last.cpuMs < IDLE_CPU_MS || performance.now() > giveUpAt) return now;
    last = now;
  }
}

/**
 * One round: every request at once, each on a connection of its own opened for the round, as a burst of
 * Slack deliveries arrives. Fresh connections every round keep the rounds alike: a kept-alive socket
 * would be reused or not depending on how long the previous round took.
 */
async function sendRound(url: string, requests: readonly SlackRequest[]): Promise<Sent> {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  try {
    return await sendAll(pool, requests);
  } finally {
    await pool.close();
  }
}

export async function runAckLatency(): Promise<BenchmarkResult> {
  const loadBefore = loadavg()[0] ?? Number.NaN;
  const world = startChild(new URL('./slack-world-process.ts', import.meta.url));
  const servers: BenchChild[] = [];
  try {
    // Paperspace and Slack are other machines in production; here they share the CPU, so they yield it.
    if (world.pid !== undefined) setPriority(world.pid, WORLD_NICENESS);
    world.send({ latencyMs: EMULATOR_LATENCY_MS } satisfies SlackWorldConfig);
    const ready = await world.next<SlackWorldReady>();
    const common = { paperspace: ready.paperspace, slackApiUrl: ready.slackApiUrl, accounts: demoAccounts() };
    const started = {} as Record<Target, { child: BenchChild; url: string }>;
    for (const target of TARGETS) {
      const server = await startServer({ kind: target, ...common });
      servers.push(server.child);
      started[target] = server;
    }
    const requests = createSlackRequests({
      signingSecret: BENCH_SIGNING_SECRET,
      responseUrl: (id) => `${ready.responseUrlPrefix}${encodeURIComponent(id)}`,
      teamId: BENCH_TEAM_ID,
      botUserId: ready.botUserId,
    });

    const figures: Figures = {
      acks: emptyByTarget(() => ({ list: [], click: [] })),
      cpuMs: emptyByTarget(() => ({ list: 0, click: 0 })),
      heapBytes: emptyByTarget(() => ({ list: 0, click: 0 })),
      paperspaceCalls: emptyByTarget(() => ({ list: 0, click: 0 })),
      replies: emptyByTarget(() => ({ list: [], click: [] })),
      missingReplies: emptyByTarget(() => 0),
      failures: [],
    };
    for (let round = 0; round <= ROUNDS; round += 1) {
      for (const kind of ['list', 'click'] as const) {
        // The servers take turns, in a different order each round, so none always follows the busiest.
        const order = TARGETS.map((_, index) => TARGETS[(index + round) % TARGETS.length] as Target);
        for (const target of order) {
          const server = started[target];
          // A round ends when the server is idle again (for the bot: every reply posted), so no round
          // runs while a server is still busy with the one before, and its CPU and heap are counted end to end.
          const before = await usageWhenIdle(server.child);
          const sent = await sendRound(server.url, batch(requests, kind));
          const { replyMs, missing, paperspaceCalls } = await repliesOf(world, sent.sentAt);
          const after = await usageWhenIdle(server.child);
          if (sent.failures.length > 0 || missing > 0) {
            console.error(
              `  ${target} ${kind} burst ${round}: ${sent.failures.length} not acked` +
                `${sent.failures.length > 0 ? ` (${sent.failures[0]})` : ''}, ${missing} replies missing`,
            );
          }
          if (round === 0) continue;
          figures.acks[target][kind].push(...sent.ackMs);
          figures.cpuMs[target][kind] += after.cpuMs - before.cpuMs;
          figures.heapBytes[target][kind] += after.heapBytes - before.heapBytes;
          figures.paperspaceCalls[target][kind] += paperspaceCalls;
          figures.replies[target][kind].push(...replyMs);
          figures.missingReplies[target] += missing;
          figures.failures.push(...sent.failures.map((failure) => `${target} ${kind}: ${failure}`));
        }
      }
    }
    return report(figures, { before: loadBefore, after: loadavg()[0] ?? Number.NaN });
  } finally {
    for (const server of servers) await server.stop();
    await world.stop();
  }
}

function emptyByTarget<T>(make: () => T): Record<Target, T> {
  return { floor: make(), bot: make() };
}

interface Figures {
  acks: Record<Target, Record<Case, number[]>>;
  /** CPU the server process used from the first request of a round until it was idle again, summed. */
  cpuMs: Record<Target, Record<Case, number>>;
  /** Bytes the server process allocated on V8's heap over the same span, summed. */
  heapBytes: Record<Target, Record<Case, number>>;
  /** Requests the emulator answered during the rounds, summed. */
  paperspaceCalls: Record<Target, Record<Case, number>>;
  /** Request sent to its reply (response_url) arriving at the fake Slack. */
  replies: Record<Target, Record<Case, number[]>>;
  /** Acked requests whose reply had not arrived REPLY_TIMEOUT_MS after the burst. */
  missingReplies: Record<Target, number>;
  failures: string[];
}

const LABEL: Record<Case, string> = { list: '`/ps list`', click: 'Usage click' };

const ratioRow = (
  metric: string,
  values: Record<Target, number>,
  format: (value: number) => string,
  limit?: number,
): ResultRow => ({
  metric,
  measured: format(values.bot),
  reference: format(values.floor),
  ratio: values.bot / values.floor,
  goal: limit === undefined ? '' : `<= ${limit}x`,
  ...(limit === undefined ? {} : { pass: values.bot / values.floor <= limit }),
});

function caseRows(figures: Figures, kind: Case): ResultRow[] {
  const { acks, cpuMs, heapBytes, replies, paperspaceCalls } = figures;
  const of = (read: (target: Target) => number): Record<Target, number> => ({
    floor: read('floor'),
    bot: read('bot'),
  });
  const label = LABEL[kind];
  const slowest = of((target) => Math.max(...acks[target][kind]));
  const calls = of((target) => paperspaceCalls[target][kind] / acks[target][kind].length);
  return [
    ratioRow(
      `${label} ack p50`,
      of((target) => percentile(acks[target][kind], 50)),
      formatMs,
    ),
    ratioRow(
      `${label} ack p99`,
      of((target) => percentile(acks[target][kind], 99)),
      formatMs,
    ),
    {
      metric: `${label} slowest ack`,
      measured: formatMs(slowest.bot),
      reference: formatMs(slowest.floor),
      ratio: slowest.bot / slowest.floor,
      goal: `< ${ACK_LIMIT_MS} ms`,
      pass: slowest.bot < ACK_LIMIT_MS,
      // The floor acks at once and does nothing else first: when even it misses the goal in this run,
      // the burst outruns this machine, whatever the bot does.
      ...(slowest.floor >= ACK_LIMIT_MS && slowest.bot >= ACK_LIMIT_MS
        ? { outOfReach: `the floor's slowest ack ${formatMs(slowest.floor)}` }
        : {}),
    },
    ratioRow(
      `${label} reply p50`,
      of((target) => percentile(replies[target][kind], 50)),
      formatMs,
    ),
    ratioRow(
      `${label} reply p99`,
      of((target) => percentile(replies[target][kind], 99)),
      formatMs,
      REPLY_P99_LIMIT,
    ),
    ratioRow(
      `${label} CPU per request, end to end`,
      of((target) => cpuMs[target][kind] / acks[target][kind].length),
      formatMs,
      CPU_LIMIT,
    ),
    ratioRow(
      `${label} heap allocated per request, end to end`,
      of((target) => heapBytes[target][kind] / acks[target][kind].length),
      formatKb,
      HEAP_ALLOCATION_LIMIT,
    ),
    {
      metric: `${label} Paperspace calls per request`,
      measured: calls.bot.toFixed(3),
      reference: calls.floor.toFixed(3),
      ratio: calls.bot / calls.floor,
      goal: CALLS_PER_REQUEST.toFixed(1),
      // A team's roles are read again when its kept copy expires (every 5 minutes): one call in a burst.
      pass: calls.bot.toFixed(2) === CALLS_PER_REQUEST.toFixed(2),
    },
  ];
}

/** The 1-minute load average when the benchmark started and ended: the machine is shared. */
function report(figures: Figures, load: { before: number; after: number }): BenchmarkResult {
  const { acks, failures, missingReplies } = figures;
  const rows = [...caseRows(figures, 'list'), ...caseRows(figures, 'click')];
  const answered = (target: Target) =>
    acks[target].list.length +
    acks[target].click.length -
    failures.filter((failure) => failure.startsWith(`${target} `)).length;
  rows.push({
    metric: 'requests answered 200',
    measured: formatCount(answered('bot')),
    reference: formatCount(answered('floor')),
    goal: 'all',
    pass: failures.length === 0,
  });
  rows.push({
    metric: `replies missing after ${REPLY_TIMEOUT_MS / 1000} s`,
    measured: formatCount(missingReplies.bot),
    reference: formatCount(missingReplies.floor),
    goal: '0',
    pass: missingReplies.bot === 0 && missingReplies.floor === 0,
  });
  const count = CONCURRENCY.toLocaleString('en-US');
  const samples = (ROUNDS * CONCURRENCY).toLocaleString('en-US');
  return {
    name: 'ack',
    title: `Ack and reply latency under a burst of ${count} requests, against the minimal-work floor`,
    setup:
      `Two servers, each in its own process on port 0: the real bot (startBot: SQLite, vault, three ` +
      `linked demo people, one an individual account and two in one team) and the minimal-work floor ` +
      `(the reference): a Bolt app from the same createSlackApp that acks, makes the one Paperspace ` +
      `call the request needs (undici, same emulator, same key) and posts one response_url reply. The ` +
      `emulator (every Paperspace call answered after ${EMULATOR_LATENCY_MS} ms) and the fake Slack run ` +
      `in a third process at lower priority (they are other machines in production). A burst is ` +
      `${count} correctly signed requests sent at once, each on a connection of its own; ${ROUNDS} ` +
      `bursts per case and server after a warm-up, the servers taking turns, ${samples} samples per row.`,
    rows,
    notes: [
      "Ack = from sending a request to Slack's HTTP response. Reply = from sending the request to its " +
        'answer arriving at the fake Slack through response_url, stamped as it arrives.',
      'CPU per request = user + system CPU of the server process from before the burst until its last ' +
        `reply had arrived and it was idle again (under ${IDLE_CPU_MS} ms of CPU in ${IDLE_WINDOW_MS} ms), ` +
        'divided by the requests.',
      "Heap allocated per request = the bytes the server process allocated on V8's heap over the same " +
        'span, divided by the requests: counted by V8 where Node reports it (total_allocated_bytes), ' +
        'otherwise the heap in use plus what each garbage collection freed (v8.GCProfiler), so when ' +
        'collections happen does not change it.',
      "Paperspace calls = the emulator's request log over the bursts, divided by the requests; a team's " +
        'roles, kept 5 minutes, are read again once when they expire.',
      `Load average (1 minute) ${load.before.toFixed(1)} when the run began and ${load.after.toFixed(1)} ` +
        'when it ended, on 2 cores: the machine is shared, so compare the ratios, not the times.',
      ...(failures.length > 0 ? [`Failed requests: ${[...new Set(failures)].slice(0, 5).join('; ')}`] : []),
    ],
  };
}
