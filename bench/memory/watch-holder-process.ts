// Child process of the memory benchmark: the bot (startBot, SQLite, vault, scheduler) in a process of
// its own, so its RSS is its own. It reads its memory after start-up, then makes the watches through
// the scheduler's watch API, ticks, and reads it again. Started by memory.ts, never on its own.
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startBenchBot } from '../support/bench-bot.js';
import { type BenchAccount, linkAccounts } from '../support/bench-world.js';
import { parentChannel, type STOP } from '../support/child-process.js';

export interface WatchHolderConfig {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
  accounts: BenchAccount[];
  /** Each person's machines, in the order of `accounts`; one watch per machine. */
  machineIds: string[][];
  ticks: number;
}

export interface MemoryReading {
  rss: number;
  heapUsed: number;
  /** Memory outside the V8 heap that V8 knows of (Buffers and the like). */
  external: number;
}

export interface WatchHolderResult {
  before: MemoryReading;
  after: MemoryReading;
  /** The largest RSS the process ever had (start-up and ticks included). */
  peakRss: number;
  activeWatches: number;
  /** Watches this replica holds a lease on after the ticks: the ones a tick polls. */
  claimedWatches: number;
  createMs: number;
  tickMs: number[];
}

/** Collects garbage until RSS stops shrinking, then reads memory. */
async function settledMemory(): Promise<MemoryReading> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc (memory.ts starts this process that way)');
  for (let round = 0; round < 3; round += 1) {
    gc();
    await nextTurn();
  }
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external };
}

const channel = parentChannel();
const config = await channel.next<WatchHolderConfig>();
const bench = await startBenchBot({ paperspace: config.paperspace, slackApiUrl: config.slackApiUrl });
const { scheduler, watcher } = bench.bot;
await linkAccounts(bench.vault, config.accounts);
const before = await settledMemory();

const createStarted = performance.now();
let made = 0;
// Round-robin over people, as watches arrive in a busy workspace.
const longest = Math.max(...config.machineIds.map((ids) => ids.length));
for (let index = 0; index < longest; index += 1) {
  for (const [person, { slackUser, account }] of config.accounts.entries()) {
    const machineId = config.machineIds[person]?.[index];
    if (machineId === undefined) continue;
    made += 1;
    await watcher.watch({
      user: slackUser,
      machineId,
      machineName: `${account.userId}-${index + 1}`,
      targetState: 'serviceready',
      channel: 'C0BENCH',
      messageTs: `1700000000.${String(made).padStart(6, '0')}`,
      initialState: 'starting',
    });
  }
}
const createMs = performance.now() - createStarted;

const tickMs: number[] = [];
for (let tick = 0; tick < config.ticks; tick += 1) {
  const started = performance.now();
  await scheduler.tick();
  tickMs.push(performance.now() - started);
}
const after = await settledMemory();
const peakRss = process.resourceUsage().maxRSS * 1024;

const active = await bench.store.watches.listActive();
channel.send({
  before,
  after,
  peakRss,
  activeWatches: active.length,
  claimedWatches: active.filter((watch) => watch.claimedBy !== null).length,
  createMs,
  tickMs,
} satisfies WatchHolderResult);
await channel.next<typeof STOP>();
await bench.close();
channel.disconnect();
