// Ack latency under load: 200 signed `/ps list` commands, then 200 Usage clicks, all sent at once, to the
// real bot and to a bare Bolt app that only acks (the floor), while Paperspace (the emulator) answers
// every call after 1000 ms. The time to the HTTP response is the time to the ack: Slack gives up after
// 3 s. The bot's reply through response_url is timed too, for context. Three processes besides this
// one: the bot, the bare app, and the world they call (emulator and fake Slack), so that this process
// only sends and times.
import { setPriority } from 'node:os';
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
import { formatCount, formatMs, percentile } from '../support/stats.js';
import {
  type AckServerConfig,
  type AckServerReady,
  type AwaitReplies,
  CPU_QUERY,
  type CpuUsed,
  type RepliesArrived,
  type SlackWorldConfig,
  type SlackWorldReady,
} from './ack-protocol.js';

const CONCURRENCY = 200;
/** Measured rounds per case, after one warm-up round whose figures are dropped. */
const ROUNDS = 10;
const EMULATOR_LATENCY_MS = 1000;
const SLACK_ACK_LIMIT_MS = 3000;
const MAX_P99_RATIO = 1.5;
/** Scheduling priority of the emulator and fake Slack process (0 normal, 19 lowest). */
const WORLD_NICENESS = 10;
/** How long the bot may take to post all replies of a round before the benchmark gives up. */
const REPLY_TIMEOUT_MS = 60_000;

type Case = 'list' | 'click';
type Target = 'bot' | 'bare';

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
      if (request.responseUrlId !== undefined) sentAt.set(request.responseUrlId, started);
      try {
        const response = await pool.request({
          path: request.path,
          method: 'POST',
          headers: request.headers,
          body: request.body,
        });
        await response.body.dump();
        if (response.statusCode !== 200) failures.push(`HTTP ${response.statusCode}`);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
      return wallClock() - started;
    }),
  );
  return { ackMs, sentAt, failures };
}

/** Waits until every request got its reply through response_url; answers the times to them. */
async function repliesOf(world: BenchChild, sentAt: ReadonlyMap<string, number>): Promise<number[]> {
  world.send({
    type: 'replies',
    ids: [...sentAt.keys()],
    timeoutMs: REPLY_TIMEOUT_MS,
  } satisfies AwaitReplies);
  const answer = await world.next<RepliesArrived>();
  if ('missing' in answer) {
    throw new Error(`the bot posted no reply to ${answer.missing} of ${sentAt.size} requests within 60 s`);
  }
  return [...sentAt].map(([id, started]) => (answer.arrivedAt[id] ?? Number.NaN) - started);
}

async function startServer(config: AckServerConfig): Promise<{ child: BenchChild; url: string }> {
  const child = startChild(new URL('./ack-server-process.ts', import.meta.url));
  child.send(config);
  const { url } = await child.next<AckServerReady>();
  return { child, url };
}

/** CPU time (user + system, ms) the process has used so far. */
async function cpuMsOf(child: BenchChild): Promise<number> {
  child.send(CPU_QUERY);
  const used = await child.next<CpuUsed>();
  return (used.user + used.system) / 1000;
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
  const world = startChild(new URL('./slack-world-process.ts', import.meta.url));
  const servers: BenchChild[] = [];
  try {
    // Paperspace and Slack are other machines in production; here they share the CPU, so they yield it.
    if (world.pid !== undefined) setPriority(world.pid, WORLD_NICENESS);
    world.send({ latencyMs: EMULATOR_LATENCY_MS } satisfies SlackWorldConfig);
    const ready = await world.next<SlackWorldReady>();
    const common = { paperspace: ready.paperspace, slackApiUrl: ready.slackApiUrl, accounts: demoAccounts() };
    const bot = await startServer({ kind: 'bot', ...common });
    servers.push(bot.child);
    const bare = await startServer({ kind: 'bare', ...common });
    servers.push(bare.child);
    const requests = createSlackRequests({
      signingSecret: BENCH_SIGNING_SECRET,
      responseUrl: (id) => `${ready.responseUrlPrefix}${encodeURIComponent(id)}`,
      teamId: BENCH_TEAM_ID,
      botUserId: ready.botUserId,
    });

    const figures: Figures = {
      acks: { bot: { list: [], click: [] }, bare: { list: [], click: [] } },
      ackCpuMs: { bot: { list: 0, click: 0 }, bare: { list: 0, click: 0 } },
      replies: { list: [], click: [] },
      failures: [],
    };
    for (let round = 0; round <= ROUNDS; round += 1) {
      for (const kind of ['list', 'click'] as const) {
        // The floor first, then the bot; the bot's round ends when its last reply is posted, so no
        // round runs while the bot is still busy with the one before.
        for (const [target, server] of [
          ['bare', bare],
          ['bot', bot],
        ] as const) {
          const cpuBefore = await cpuMsOf(server.child);
          const sent = await sendRound(server.url, batch(requests, kind));
          const cpuAcking = (await cpuMsOf(server.child)) - cpuBefore;
          const replyMs = target === 'bot' ? await repliesOf(world, sent.sentAt) : [];
          if (round === 0) continue;
          figures.acks[target][kind].push(...sent.ackMs);
          figures.ackCpuMs[target][kind] += cpuAcking;
          if (target === 'bot') figures.replies[kind].push(...replyMs);
          figures.failures.push(...sent.failures.map((failure) => `${target} ${kind}: ${failure}`));
        }
      }
    }
    return report(figures);
  } finally {
    for (const server of servers) await server.stop();
    await world.stop();
  }
}

interface Figures {
  acks: Record<Target, Record<Case, number[]>>;
  /** CPU the server process used from the first request of a round to its last ack, summed over rounds. */
  ackCpuMs: Record<Target, Record<Case, number>>;
  replies: Record<Case, number[]>;
  failures: string[];
}

function report({ acks, ackCpuMs, replies, failures }: Figures): BenchmarkResult {
  const rows: ResultRow[] = [];
  const label: Record<Case, string> = { list: '`/ps list`', click: 'Usage click' };
  for (const kind of ['list', 'click'] as const) {
    const bot = acks.bot[kind];
    const bare = acks.bare[kind];
    const botP50 = percentile(bot, 50);
    const bareP50 = percentile(bare, 50);
    const botP99 = percentile(bot, 99);
    const bareP99 = percentile(bare, 99);
    const botMax = Math.max(...bot);
    const botCpu = ackCpuMs.bot[kind] / bot.length;
    const bareCpu = ackCpuMs.bare[kind] / bare.length;
    rows.push(
      {
        metric: `${label[kind]} ack p50`,
        measured: formatMs(botP50),
        reference: formatMs(bareP50),
        ratio: botP50 / bareP50,
        goal: '',
      },
      {
        metric: `${label[kind]} ack p99`,
        measured: formatMs(botP99),
        reference: formatMs(bareP99),
        ratio: botP99 / bareP99,
        goal: `ratio <= ${MAX_P99_RATIO}x`,
        pass: botP99 / bareP99 <= MAX_P99_RATIO,
      },
      {
        metric: `${label[kind]} slowest ack`,
        measured: formatMs(botMax),
        reference: formatMs(Math.max(...bare)),
        goal: `< ${SLACK_ACK_LIMIT_MS} ms`,
        pass: botMax < SLACK_ACK_LIMIT_MS,
      },
      {
        metric: `${label[kind]} server CPU per request while acking`,
        measured: formatMs(botCpu),
        reference: formatMs(bareCpu),
        ratio: botCpu / bareCpu,
        goal: '',
      },
      {
        metric: `${label[kind]} reply (response_url) p50 / p99`,
        measured: `${formatMs(percentile(replies[kind], 50))} / ${formatMs(percentile(replies[kind], 99))}`,
        reference: `${EMULATOR_LATENCY_MS} ms API latency`,
        goal: '',
      },
    );
  }
  const answered = (target: Target) =>
    acks[target].list.length +
    acks[target].click.length -
    failures.filter((failure) => failure.startsWith(target)).length;
  rows.push({
    metric: 'requests answered 200',
    measured: formatCount(answered('bot')),
    reference: formatCount(answered('bare')),
    goal: 'all',
    pass: failures.length === 0,
  });
  return {
    name: 'ack',
    title: 'Ack latency under 200 concurrent requests',
    setup:
      `The real bot (startBot: SQLite, vault, three linked demo people) and a bare Bolt app from the same ` +
      `createSlackApp whose listeners only ack, each in its own process on port 0; the emulator (every ` +
      `Paperspace call answered after ${EMULATOR_LATENCY_MS} ms) and the fake Slack in a third process at ` +
      `lower priority (they are other machines in production). Per round, ${CONCURRENCY} correctly ` +
      `signed requests are sent at once, each on a new connection (undici Pool of ${CONCURRENCY}); ` +
      `${ROUNDS} rounds per case after a warm-up, bare and bot alternating, ` +
      `${(ROUNDS * CONCURRENCY).toLocaleString('en-US')} samples per row. Reference = the bare app.`,
    rows,
    notes: [
      "Ack = the HTTP response to Slack's request. Both acks come before any Paperspace call. The bot's " +
        'listener then goes on with the command (vault, client, request to Paperspace) on the same event ' +
        'loop; src/slack/acks-first.ts holds that follow-up work back while requests are still being ' +
        'acked, and one listener per surface finds the button by id (src/slack/router.ts), so ' +
        'under a burst an ack waits on little more than the receiving of the requests ahead of it.',
      'Reply = from sending the request to its reply reaching the fake Slack through response_url: one ' +
        "Paperspace call of 1000 ms, plus the wait for one of the bot's 256 sockets to Paperspace.",
      ...(failures.length > 0 ? [`Failed requests: ${[...new Set(failures)].slice(0, 5).join('; ')}`] : []),
    ],
  };
}
