// Reports at size: a team digest for 1,000 people and /ps spend for a person with 5,000 machines,
// with Paperspace answering every call after 250 ms and holding each key to a per-second limit. The bot runs in a process of its own and
// measures its event loop's longest stall (perf_hooks monitorEventLoopDelay) while it builds each
// report; meanwhile bursts of signed `/ps whoami` commands from the team arrive, each timed to its
// ack, as Slack would time it. The emulator and the fake Slack run in a third process, so that only
// the bot's own work counts as its stalls; /ps spend's reply is timed to its arrival at the fake Slack.
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { createSlackRequests, type SlackRequests } from '../../test/support/slack-requests.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { BENCH_SIGNING_SECRET } from '../support/bench-bot.js';
import { BENCH_TEAM_ID, type BenchAccount, benchAccounts } from '../support/bench-world.js';
import { type BenchChild, startChild } from '../support/child-process.js';
import { formatCount, formatMs } from '../support/stats.js';
import {
  COUNT_RATE_LIMITED,
  type DigestPosted,
  POST_DIGEST,
  READ_STALLS,
  RESET_STALLS,
  type ReplyArrived,
  type ReportsBotConfig,
  type ReportsBotReady,
  type ReportsWorldConfig,
  type ReportsWorldReady,
  type Stalls,
} from './reports-protocol.js';
import { measureSpendFloor } from './spend-floor.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PEOPLE = QUICK ? 100 : 1000;
const MACHINES = QUICK ? 500 : 5000;
const EMULATOR_LATENCY_MS = 250;
/**
 * Paperspace publishes no per-key limit. The emulator answers 429 past this many calls per second of
 * one key, so the bot's pace must find the limit by its 429s instead of reading against a server that
 * takes any number at once: 5,000 reads are then two and a half seconds at the least.
 * BENCH_REPORTS_KEY_LIMIT=<calls a second> runs it against another (a lower one makes the pace meet 429s).
 */
const PER_KEY_LIMIT = Number(process.env.BENCH_REPORTS_KEY_LIMIT ?? 2000);
/** Machines per page of the legacy list (MACHINE_LIST_PAGE_SIZE): listed one page after another. */
const LIST_PAGE = 1000;
const PAPERSPACE_TEAM = 'te1bench';
/** Goals: the issue's done-means. */
const STALL_LIMIT_MS = 100;
const ACK_LIMIT_MS = 3000;
const SPEND_REPLY_LIMIT_MS = 5000;
/** Commands of one burst, and the pause between bursts while a report is built. */
const BURST = 10;
const BURST_EVERY_MS = 500;
const WORLD_NICENESS = 10;
/** How long the floor's commands are sent: about as long as a report takes. */
const FLOOR_MS = 4000;
const REPLY_TIMEOUT_MS = 120_000;

const wallClock = () => performance.timeOrigin + performance.now();

/** Commands from the team, burst after burst, until `done` settles; answers every ack's time. */
async function burstsUntil(
  done: Promise<unknown>,
  pool: Pool,
  requests: SlackRequests,
  team: readonly BenchAccount[],
): Promise<{ ackMs: number[]; failures: number }> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const ackMs: number[] = [];
  let failures = 0;
  const sent: Promise<void>[] = [];
  for (let burst = 0; !finished; burst += 1) {
    for (let index = 0; index < BURST; index += 1) {
      const person = team[(burst * BURST + index) % team.length] as BenchAccount;
      const request = requests.slashCommand({ text: 'whoami', userId: person.slackUser.userId });
      const started = wallClock();
      sent.push(
        pool
          .request({ path: request.path, method: 'POST', headers: request.headers, body: request.body })
          .then(async (response) => {
            await response.body.dump();
            if (response.statusCode !== 200) failures += 1;
            ackMs.push(wallClock() - started);
          })
          .catch(() => {
            failures += 1;
          }),
      );
    }
    await Promise.race([done, delay(BURST_EVERY_MS)]);
  }
  await Promise.all(sent);
  return { ackMs, failures };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The reference is the same bot's longest stall under the commands alone, no report being built. */
function stallRow(what: string, stalls: Stalls, floor: Stalls): ResultRow {
  return {
    metric: `${what}: longest event-loop stall (p99 of the loop's delay)`,
    measured: `${formatMs(stalls.maxMs)} (p99 ${formatMs(stalls.p99Ms)})`,
    reference: `${formatMs(floor.maxMs)} (p99 ${formatMs(floor.p99Ms)}), commands alone`,
    ratio: stalls.maxMs / floor.maxMs,
    goal: `at most ${STALL_LIMIT_MS} ms`,
    pass: stalls.maxMs <= STALL_LIMIT_MS,
    ...(floor.maxMs > STALL_LIMIT_MS ? { outOfReach: `commands alone stall ${formatMs(floor.maxMs)}` } : {}),
  };
}

function ackRow(what: string, acks: { ackMs: number[]; failures: number }): ResultRow {
  const slowest = Math.max(0, ...acks.ackMs);
  return {
    metric: `${what}: slowest ack of ${formatCount(acks.ackMs.length)} commands sent meanwhile`,
    measured: `${formatMs(slowest)}${acks.failures > 0 ? `, ${acks.failures} failed` : ''}`,
    reference: `${ACK_LIMIT_MS} ms (Slack's limit)`,
    ratio: slowest / ACK_LIMIT_MS,
    goal: `every one within ${ACK_LIMIT_MS / 1000} s`,
    pass: acks.failures === 0 && acks.ackMs.length > 0 && slowest <= ACK_LIMIT_MS,
  };
}

export async function runReports(): Promise<BenchmarkResult> {
  const people = benchAccounts(PEOPLE + 1);
  const team = people
    .slice(0, PEOPLE)
    .map((person) => ({ ...person, account: { ...person.account, teamId: PAPERSPACE_TEAM } }));
  const owner = people[PEOPLE] as BenchAccount;
  const [admin] = team;
  if (admin === undefined) throw new Error('no administrator');
  const world = startChild(new URL('./reports-world-process.ts', import.meta.url));
  let bot: BenchChild | undefined;
  let pool: Pool | undefined;
  try {
    if (world.pid !== undefined) setPriority(world.pid, WORLD_NICENESS);
    world.send({
      latencyMs: EMULATOR_LATENCY_MS,
      perKeyLimit: PER_KEY_LIMIT,
      team,
      owner,
      machines: MACHINES,
    } satisfies ReportsWorldConfig);
    const ready = await world.next<ReportsWorldReady>();
    bot = startChild(new URL('./reports-bot-process.ts', import.meta.url));
    bot.send({
      paperspace: ready.paperspace,
      slackApiUrl: ready.slackApiUrl,
      accounts: [...team, owner],
      admin,
      channel: 'C0REPORTS',
    } satisfies ReportsBotConfig);
    const { url } = await bot.next<ReportsBotReady>();
    pool = new Pool(url, { connections: BURST * 4, pipelining: 1 });
    const requests = createSlackRequests({
      signingSecret: BENCH_SIGNING_SECRET,
      responseUrl: (id) => `${ready.responseUrlPrefix}${encodeURIComponent(id)}`,
      teamId: BENCH_TEAM_ID,
    });
    const child = bot;
    const stallsDuring = async <T>(work: () => Promise<T>) => {
      child.send(RESET_STALLS);
      await child.next<null>();
      const value = await work();
      child.send(READ_STALLS);
      return { value, stalls: await child.next<Stalls>() };
    };

    // The floor: the same commands with no report being built, for as long as a report takes.
    const floor = await stallsDuring(() => burstsUntil(delay(FLOOR_MS), pool as Pool, requests, team));

    // The team digest: 1,000 people's machines listed, read and posted, commands arriving meanwhile.
    const digest = await stallsDuring(async () => {
      child.send(POST_DIGEST);
      const posted = child.next<DigestPosted>();
      const acks = await burstsUntil(posted, pool as Pool, requests, team);
      return { posted: await posted, acks };
    });

    // /ps spend for the person with 5,000 machines: every one's usage read with their key.
    const spend = await stallsDuring(async () => {
      const request = requests.slashCommand({ text: 'spend', userId: owner.slackUser.userId });
      const sentAt = wallClock();
      const acked = (pool as Pool)
        .request({ path: request.path, method: 'POST', headers: request.headers, body: request.body })
        .then((response) => response.body.dump());
      world.send({ type: 'reply', id: request.responseUrlId ?? '', timeoutMs: REPLY_TIMEOUT_MS });
      const arrived = world.next<ReplyArrived>();
      const acks = await burstsUntil(arrived, pool as Pool, requests, team);
      await acked;
      const reply = await arrived;
      return { replyMs: reply.arrivedAt === undefined ? Number.NaN : reply.arrivedAt - sentAt, reply, acks };
    });

    world.send(COUNT_RATE_LIMITED);
    const rateLimited = await world.next<number>();
    // The same reads by the least any client does, on the same world and machine right after.
    const floorMs = await measureSpendFloor({
      apiUrl: ready.paperspace.apiUrl,
      apiKey: owner.apiKey,
      perKeyLimit: PER_KEY_LIMIT,
    });
    const { posted } = digest.value;
    const { replyMs, reply } = spend.value;
    // About the time of a client that lists before it reads: the pages one after another, then every
    // machine's read at the key's limit, the last ones answered a round trip later.
    const listPages = Math.floor(MACHINES / LIST_PAGE) + 1;
    const spendLeastMs =
      listPages * EMULATOR_LATENCY_MS + (MACHINES / PER_KEY_LIMIT) * 1000 + EMULATOR_LATENCY_MS;
    const rows: ResultRow[] = [
      {
        metric: `digest of ${formatCount(PEOPLE)} people: built and posted`,
        measured: posted.fired === 1 ? seconds(posted.tookMs) : `fired ${posted.fired} times`,
        reference: '-',
        goal: 'posted once',
        pass: posted.fired === 1,
      },
      {
        metric: `commands alone (${seconds(FLOOR_MS)}, no report): longest stall, slowest ack`,
        measured: `${formatMs(floor.stalls.maxMs)}, ${formatMs(Math.max(0, ...floor.value.ackMs))}`,
        reference: '-',
        goal: 'the reference of the rows below',
      },
      stallRow('digest', digest.stalls, floor.stalls),
      ackRow('digest', digest.value.acks),
      {
        metric: `/ps spend of ${formatCount(MACHINES)} machines: reply (the spend table)`,
        measured: Number.isNaN(replyMs)
          ? `no reply within ${seconds(REPLY_TIMEOUT_MS)}`
          : `${seconds(replyMs)}${reply.blocks ? '' : ', text only'}`,
        reference: `${seconds(floorMs)}, the minimal-work floor, which lists, then reads (on a quiet machine about ${seconds(spendLeastMs)}: ${listPages} list pages, then ${formatCount(MACHINES)} reads at ${formatCount(PER_KEY_LIMIT)} a second)`,
        ratio: replyMs / floorMs,
        goal: `within ${SPEND_REPLY_LIMIT_MS / 1000} s, as blocks`,
        pass: replyMs <= SPEND_REPLY_LIMIT_MS && reply.blocks,
      },
      stallRow('/ps spend', spend.stalls, floor.stalls),
      ackRow('/ps spend', spend.value.acks),
    ];
    return {
      name: 'reports',
      title: 'Reports at size: a 1,000-person digest and a 5,000-machine /ps spend',
      setup:
        `${formatCount(PEOPLE)} people of one Paperspace team with a running machine each (the digest, set by its ` +
        `administrator) and one person with ${formatCount(MACHINES)} machines (/ps spend); the legacy API, ` +
        `every call answered after ${EMULATOR_LATENCY_MS} ms and each key held to ${formatCount(PER_KEY_LIMIT)} calls a ` +
        `second (429 with Retry-After past it); the bot, the emulator with the fake Slack, and the ` +
        `load each in a process of their own; ${BURST} \`/ps whoami\` every ${BURST_EVERY_MS} ms while a report is ` +
        `built.${QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''}`,
      rows,
      notes: [
        'Stall = the longest delay of the bot’s event loop while the report was built (monitorEventLoopDelay, 5 ms resolution), its commands meanwhile included.',
        'Usage is read through the key’s pace (spend/read-pace.ts), which finds the key’s limit by its 429s.',
        `The emulator answered ${formatCount(rateLimited)} calls with 429 over the run (each retried after its Retry-After), the floor's included.`,
        'The minimal-work floor (spend-floor.ts) lists the machines and reads each one’s utilization with the same key from the benchmark’s process, each second’s share sent as the emulator’s window opens: the time Paperspace itself takes on this machine now. Under load from other work the emulator answers later than its 250 ms, for the floor as for the bot.',
      ],
    };
  } finally {
    await pool?.close();
    await bot?.stop();
    await world.stop();
  }
}
