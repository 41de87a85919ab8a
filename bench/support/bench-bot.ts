// The bot as production wires it (src/bot.ts: startBot) for the benchmarks: HTTP mode on port 0, a real
// SQLite file in a temporary directory, a real key vault, logging at the production default level (info)
// into a stream that drops the lines, and a scheduler that only ticks when the benchmark says so.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type RunningBot, startBot } from '../../src/bot.js';
import { createLogger, type Logger } from '../../src/logger.js';
import type { CronEngine } from '../../src/scheduler/cron-engine.js';
import { manualTimers, type SchedulerTimers } from '../../src/scheduler/scheduler.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';

export const BENCH_SIGNING_SECRET = 'bench-signing-secret';
export const BENCH_BOT_TOKEN = 'xoxb-bench-bot-token';
export const BENCH_POLL_INTERVAL_MS = 5000;

export interface BenchBotOptions {
  paperspace: { apiUrl: string; graphqlUrl: string };
  /** The fake Slack Web API (`FakeSlack.apiUrl`). */
  slackApiUrl: string;
  /** The bot's clock; pass the emulator's fake clock to move both together. */
  now?: () => number;
  /** A database to share with other replicas (postgres://...); a fresh SQLite file by default. */
  databaseUrl?: string;
  /** Names the replica in leases; replicas of one run need distinct ids. */
  replicaId?: string;
  /** The vault key; replicas sharing a database must share it. A fresh key by default. */
  vaultKey?: Buffer;
  /** Manual ticks by default; realTimers to poll every 5 s on the real clock. */
  timers?: SchedulerTimers;
  /** node-cron by default; a manual cron fires the digests and reminders when the benchmark says. */
  cron?: CronEngine;
}

export interface BenchBot {
  /** `http://127.0.0.1:<port>` */
  url: string;
  bot: RunningBot;
  store: Store;
  vault: KeyVault;
  close(): Promise<void>;
}

/** A logger that formats every line as production does and then drops it, so logging costs what it costs. */
export function discardingLogger(): Logger {
  // BENCH_LOG=1 shows warnings and errors instead, to find out why a benchmark misses a goal.
  if (process.env.BENCH_LOG === '1') return createLogger({ level: 'warn', destination: process.stderr });
  return createLogger({
    level: 'info',
    destination: new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    }),
  });
}

export async function startBenchBot(options: BenchBotOptions): Promise<BenchBot> {
  const directory = await mkdtemp(join(tmpdir(), 'ps-bot-bench-'));
  const now = options.now ?? Date.now;
  const store = await openStore(options.databaseUrl ?? `sqlite:${join(directory, 'bot.db')}`, { now });
  const vault = createKeyVault({ keys: [options.vaultKey ?? randomBytes(32)], store, now });
  let bot: RunningBot;
  try {
    bot = await startBot({
      slack: {
        mode: 'http',
        botToken: BENCH_BOT_TOKEN,
        signingSecret: BENCH_SIGNING_SECRET,
        apiUrl: options.slackApiUrl,
      },
      paperspace: options.paperspace,
      port: 0,
      store,
      vault,
      logger: discardingLogger(),
      scheduler: {
        pollIntervalMs: BENCH_POLL_INTERVAL_MS,
        timers: options.timers ?? manualTimers,
        replicaId: options.replicaId ?? 'bench',
        ...(options.cron === undefined ? {} : { cron: options.cron }),
      },
      now,
    });
  } catch (error) {
    await store.close();
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${bot.port}`,
    bot,
    store,
    vault,
    async close() {
      await bot.stop();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
