// Child process of the completion benchmark: the minimal-work floor for completions, in place of one
// replica. It does the least any bot can do to tell a person their machine is ready: every poll interval
// it lists each waiting person's machines with that person's key (one call per person, as many at once
// as the bot may make, each cut off where the bot's is), and the first list that shows the machine at
// serviceready posts one reply in the card's thread (at Slack's pace in a channel several wait in,
// those waiting for its turn in one message). No store, no vault, no leases, no card updates, no
// schema parsing: what is left is the HTTP the goal cannot do without. Measured on the same world as
// the bot, it shows whether the completion goal is within this machine's reach at a size at all.
// Started by completion-session.ts, never on its own.
import { Agent, request } from 'undici';
import { DEFAULT_POLL_CONCURRENCY } from '../../src/config.js';
import { createLimiter } from '../../src/scheduler/concurrency.js';
import { BENCH_BOT_TOKEN, BENCH_POLL_INTERVAL_MS } from '../support/bench-bot.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import type { CPU_QUERY, CpuUsed, FloorConfig, FloorRound, ReplicaReady } from './completion-protocol.js';

/** The bot cuts a poll off at this share of the interval (watch-poller.ts); so does the floor. */
const POLL_DEADLINE_MS = BENCH_POLL_INTERVAL_MS * 0.8;

const channel = parentChannel();
const config = await channel.next<FloorConfig>();
// As the bot connects to Paperspace (bot.ts) and to Slack (one pool each).
const paperspace = new Agent({ connections: DEFAULT_POLL_CONCURRENCY, keepAliveTimeout: 10_000 });
const slack = new Agent({ keepAliveTimeout: 10_000 });
const limiter = createLimiter(DEFAULT_POLL_CONCURRENCY);

type Waiting = FloorRound['machines'][number];
/** The machines not yet seen ready, by the key that lists them. */
let waiting = new Map<string, Waiting>();
const inFlight = new Set<string>();

async function listed(apiKey: string): Promise<Array<{ id: string; state: string }>> {
  const response = await request(`${config.paperspace.apiUrl}/machines/getMachines`, {
    dispatcher: paperspace,
    headers: { 'x-api-key': apiKey, accept: 'application/json' },
    signal: AbortSignal.timeout(POLL_DEADLINE_MS),
  });
  const body = await response.body.json();
  return response.statusCode === 200 && Array.isArray(body) ? body : [];
}

/**
 * Each channel's replies, at Slack's pace there (about one message a second for the app, shared by the
 * pollers: each keeps to its share). Replies that wait for the channel's turn go out together.
 */
const spacingMs = 1000 * config.pollers;
const lanes = new Map<string, { waiting: Waiting[]; nextAt: number; timer?: NodeJS.Timeout }>();

function announce(machine: Waiting): void {
  const lane = lanes.get(machine.channel) ?? { waiting: [], nextAt: 0 };
  lanes.set(machine.channel, lane);
  lane.waiting.push(machine);
  schedule(machine.channel);
}

function schedule(channelId: string): void {
  const lane = lanes.get(channelId);
  if (lane === undefined || lane.timer !== undefined || lane.waiting.length === 0) return;
  lane.timer = setTimeout(() => void flush(channelId), Math.max(0, lane.nextAt - Date.now()));
}

async function flush(channelId: string): Promise<void> {
  const lane = lanes.get(channelId);
  if (lane === undefined) return;
  lane.timer = undefined;
  const batch = lane.waiting.splice(0);
  lane.nextAt = Date.now() + spacingMs;
  const retryAfterMs = await reply(channelId, batch).catch(() => 1000);
  if (retryAfterMs !== undefined) {
    lane.waiting.unshift(...batch);
    lane.nextAt = Date.now() + retryAfterMs;
  }
  schedule(channelId);
}

/** One reply for `batch`: in the card's thread when alone, naming every machine when several. Undefined when Slack took it; else how long to wait before trying again. */
async function reply(channelId: string, batch: readonly Waiting[]): Promise<number | undefined> {
  const [first] = batch;
  if (first === undefined) return undefined;
  const message =
    batch.length === 1
      ? { channel: channelId, thread_ts: first.cardTs, text: `${first.machineName} is ready` }
      : { channel: channelId, text: `${batch.map((machine) => machine.machineName).join(', ')} are ready` };
  const response = await request(`${config.slackApiUrl}chat.postMessage`, {
    dispatcher: slack,
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_BOT_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
  const answer = (await response.body.json()) as { ok?: boolean };
  if (answer.ok === true) return undefined;
  return Number(response.headers['retry-after'] ?? 1) * 1000;
}

async function poll(machine: Waiting): Promise<void> {
  const machines = await listed(machine.apiKey);
  if (machines.some(({ id, state }) => id === machine.machineId && state === 'serviceready')) {
    waiting.delete(machine.apiKey);
    announce(machine);
  }
}

function tick(): void {
  for (const machine of waiting.values()) {
    // As the bot does: a person whose last poll has not answered is skipped, not waited for.
    if (inFlight.has(machine.apiKey)) continue;
    inFlight.add(machine.apiKey);
    limiter
      .run(() => poll(machine))
      .catch(() => undefined)
      .finally(() => inFlight.delete(machine.apiKey));
  }
}

const timer = setInterval(tick, BENCH_POLL_INTERVAL_MS);
channel.send({ pid: process.pid } satisfies ReplicaReady);
for (;;) {
  const message = await channel.next<FloorRound | typeof CPU_QUERY | typeof STOP>();
  if (message.type === 'stop') break;
  if (message.type === 'cpu') channel.send(process.cpuUsage() satisfies CpuUsed);
  else waiting = new Map(message.machines.map((machine) => [machine.apiKey, machine]));
}
clearInterval(timer);
await Promise.all([paperspace.close(), slack.close()]);
channel.disconnect();
process.exit(0);
