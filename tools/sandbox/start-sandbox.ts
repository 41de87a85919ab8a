// `npm start` without Slack credentials: the real bot in HTTP mode, in one process with the Paperspace
// emulator (demo accounts, fast transitions) and a stand-in for Slack that serves a web page. A person
// types /ps in the page and the bot receives exactly what Slack would send it.
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CustomRoute } from '@slack/bolt';
import { startBot } from '../../src/bot.js';
import type { Logger } from '../../src/logger.js';
import type { Dialect } from '../../src/paperspace/dialect.js';
import type { Scheduler } from '../../src/scheduler/scheduler.js';
import { SLACK_EVENTS_PATH } from '../../src/slack/app.js';
import { openStore } from '../../src/store/store.js';
import { createKeyVault } from '../../src/vault/key-vault.js';
import {
  type EmulatorControl,
  type EmulatorUser,
  type RunningEmulator,
  startEmulator,
} from '../emulator/index.js';
import { createManualCron } from './clock-driven-cron.js';
import { type ClockControl, createSandboxClock } from './sandbox-clock.js';
import { SANDBOX_PEOPLE } from './sandbox-identity.js';
import { lockSandbox } from './sandbox-lock.js';
import { startSlackSandbox } from './slack-sandbox.js';
import { loadOrCreateVaultKey } from './vault-key-file.js';

/** Fast enough to watch a machine start in a demo, slow enough to see each state on the card. */
const SANDBOX_TRANSITION_MS = 1500;
/** Watches poll this often, so a card follows each of those states (POLL_INTERVAL_MS is for real APIs). */
const SANDBOX_POLL_INTERVAL_MS = 1000;
/** How often cron occurrences are looked for: node-cron's own resolution, a second. */
const CRON_CHECK_MS = 1000;
/**
 * A clock move stops at most this often for the reminders and digests it passes; past that (a minutely
 * schedule moved a week) the rest fire once at the move's end, as node-cron does after a jump.
 */
const MAX_STOPS_PER_MOVE = 200;
const VAULT_KEY_FILE = 'sandbox-vault.key';
/** One database per dialect: each is made with that dialect's emulator world. */
const DATABASE_FILES: Record<Dialect, string> = { contract: 'sandbox.db', v1: 'sandbox-v1.db' };
/** Where a sandbox from before DATABASE_FILES named the dialect of its one database. */
const DIALECT_FILE = 'sandbox-dialect';

export interface SandboxOptions {
  logger: Logger;
  /** Port of the page and the Slack stand-in (PORT); 0 picks a free one. */
  port: number;
  /** Holds the generated vault key and the SQLite database; created when missing. */
  dataDir: string;
  /** Address to listen on; loopback by default, since the sandbox has no authentication. */
  host?: string;
  /** VAULT_KEY when it is set; otherwise the sandbox keeps its own key under dataDir. */
  vaultKeys?: readonly Buffer[];
  /** Length of each timed machine state in the emulator. */
  transitionMs?: number;
  /** How often watched machines are polled; SANDBOX_POLL_INTERVAL_MS by default. */
  pollIntervalMs?: number;
  /** Extra routes for the bot's HTTP server, such as health checks. */
  customRoutes?: CustomRoute[];
  /** Real time for Slack's half; the bot and the emulator run on the sandbox clock built on it. */
  now?: () => number;
  /** Which API the bot speaks to the emulator: the legacy contract (default) or v1 under /v1. */
  dialect?: Dialect;
}

export interface RunningSandbox {
  /** The page: `http://127.0.0.1:<port>/`. */
  url: string;
  /** The bot's own HTTP server (where the stand-in sends Slack's requests). */
  botUrl: string;
  emulatorUrl: string;
  /**
   * The emulator's world, for what the page cannot do in one step: a test gives a person many running
   * machines, or makes Paperspace refuse a stop, as it would with a bot of its own.
   */
  world: EmulatorControl;
  /** The page's clock control: moves the bot's and the emulator's time and runs what fell due. */
  clock: ClockControl;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const { logger, dataDir } = options;
  const realNow = options.now ?? Date.now;
  // One clock for the bot, its store and the emulator, so that moving it moves their world together.
  const sandboxClock = createSandboxClock(realNow);
  const now = sandboxClock.now;
  const cron = createManualCron(now);
  let scheduler: Scheduler | undefined;
  const clock: ClockControl = {
    reading: () => ({ now: now(), offsetMs: sandboxClock.offsetMs() }),
    async advance(ms) {
      const targetOffset = sandboxClock.offsetMs() + ms;
      // The move stops at each reminder or digest on its way, as real time would pass it: each is posted
      // at its own time (its message stamped with the time it said, and about the machines running
      // then), not at the end of the move. A reminder or digest stored since the last tick is put on the
      // cron engine first, so that its next time is counted from before the move, as it was set.
      for (let stops = 0; ; stops += 1) {
        await scheduler?.tick();
        const due = cron.nextDueAt();
        const dueOffset = due === undefined ? targetOffset : due - realNow();
        const stopAt = stops < MAX_STOPS_PER_MOVE ? Math.min(dueOffset, targetOffset) : targetOffset;
        const step = stopAt - sandboxClock.offsetMs();
        if (step > 0) sandboxClock.advance(step);
        await cron.runDue();
        if (sandboxClock.offsetMs() >= targetOffset) break;
      }
      await scheduler?.tick();
    },
  };
  const cleanup: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  };

  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    // Before anything in the folder is read or written: a second sandbox must change nothing.
    const lock = await lockSandbox(dataDir, `http://${options.host ?? '127.0.0.1'}:${options.port}/`);
    cleanup.push(() => lock.release());
    const vaultKeys = options.vaultKeys?.length
      ? [...options.vaultKeys]
      : [await sandboxVaultKey(dataDir, logger)];
    const emulator = await startEmulator({
      transitionMs: options.transitionMs ?? SANDBOX_TRANSITION_MS,
      now,
    });
    const dialect = options.dialect ?? 'contract';
    const paperspaceApiUrl = dialect === 'v1' ? `${emulator.url}/v1` : emulator.url;
    cleanup.push(() => emulator.close());
    const databasePath = await databaseForDialect(dataDir, dialect, logger);
    const store = await openStore({ kind: 'sqlite', path: databasePath }, { now });
    cleanup.push(() => store.close());
    const vault = createKeyVault({ keys: vaultKeys, store, now });
    await vault.verify();

    const slack = await startSlackSandbox({
      logger,
      port: options.port,
      host: options.host ?? '127.0.0.1',
      notes: personNotes(emulator),
      now: realNow,
      clock,
    });
    cleanup.push(() => slack.close());
    await lock.announce(`${slack.url}/`);

    const bot = await startBot({
      slack: {
        mode: 'http',
        botToken: slack.botToken,
        signingSecret: slack.signingSecret,
        apiUrl: slack.apiUrl,
      },
      paperspace: { apiUrl: paperspaceApiUrl, graphqlUrl: emulator.graphqlUrl },
      port: 0,
      store,
      vault,
      logger,
      scheduler: { pollIntervalMs: options.pollIntervalMs ?? SANDBOX_POLL_INTERVAL_MS, cron },
      now,
      ...(options.customRoutes ? { customRoutes: options.customRoutes } : {}),
    });
    cleanup.push(() => bot.stop());
    scheduler = bot.scheduler;
    // Reminders and digests fire as real time reaches them too, as node-cron would fire them.
    const cronTimer = setInterval(() => {
      cron
        .runDue()
        .catch((error: unknown) => logger.error({ error: String(error) }, 'sandbox: a cron job failed'));
    }, CRON_CHECK_MS);
    cronTimer.unref();
    cleanup.push(async () => clearInterval(cronTimer));
    const botUrl = `http://127.0.0.1:${bot.port}`;
    slack.setRequestUrl(`${botUrl}${SLACK_EVENTS_PATH}`);

    announce(logger, `${slack.url}/`, emulator, dialect);
    return {
      url: `${slack.url}/`,
      botUrl,
      emulatorUrl: emulator.url,
      world: emulator.state,
      clock,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/**
 * The emulator's world differs by dialect (v1 names machines, users and teams its own way, and a v1 key
 * names its person where a contract team key needs an e-mail), so a database made with one dialect's
 * world holds links, reminders, watches and shares the other's world does not have. Each dialect
 * therefore keeps its own database file, and trying v1 loses nothing of the contract's sandbox. A
 * folder from before kept one file and named its dialect in DIALECT_FILE: a v1 one is moved to v1's name.
 */
async function databaseForDialect(dataDir: string, dialect: Dialect, logger: Logger): Promise<string> {
  const markerPath = join(dataDir, DIALECT_FILE);
  const recorded = await readFile(markerPath, 'utf8').then(
    (text) => text.trim(),
    () => undefined,
  );
  if (recorded === 'v1') {
    const from = join(dataDir, DATABASE_FILES.contract);
    const to = join(dataDir, DATABASE_FILES.v1);
    if ((await exists(from)) && !(await exists(to))) {
      for (const suffix of ['', '-wal', '-shm', '-journal']) {
        await rename(`${from}${suffix}`, `${to}${suffix}`).catch(() => undefined);
      }
      logger.info({ path: to }, 'sandbox: kept the v1 database under its own name, beside the contract’s');
    }
  }
  await rm(markerPath, { force: true });
  return join(dataDir, DATABASE_FILES[dialect]);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function sandboxVaultKey(dataDir: string, logger: Logger): Promise<Buffer> {
  const path = join(dataDir, VAULT_KEY_FILE);
  const { key, created, tightened } = await loadOrCreateVaultKey(path);
  if (created)
    logger.info({ path }, 'sandbox: generated a vault key (owner-only file; the sandbox alone uses it)');
  if (tightened)
    logger.warn({ path }, 'sandbox: the vault key file was readable by others; narrowed it to 0600');
  return key;
}

function describeAccount(user: EmulatorUser): string {
  return user.accountKind === 'individual'
    ? 'individual account, administrator'
    : `team ${user.accountName}, ${user.role === 'admin' ? 'administrator' : 'member'}`;
}

/**
 * What to type in the login form: the key alone. A contract team key does not say which member it
 * belongs to, but the bot reads the e-mail on the person's Slack profile, which the stand-in gives
 * each demo person (sandbox-identity.ts); a v1 key names its person itself.
 */
function loginDetails(user: EmulatorUser): string {
  return user.apiKey ?? '';
}

/** The line beside each person in the page's user switcher: their demo account and the key to link. */
function personNotes(emulator: RunningEmulator): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const person of SANDBOX_PEOPLE) {
    const user = emulator.state.user(person.emulatorUserId);
    if (user?.apiKey) notes[person.id] = `${describeAccount(user)} · /ps login with ${loginDetails(user)}`;
  }
  return notes;
}

function announce(logger: Logger, url: string, emulator: RunningEmulator, dialect: Dialect): void {
  logger.info({ url }, `SANDBOX MODE — no Slack credentials set; open ${url}`);
  logger.info(
    { paperspaceApiUrl: dialect === 'v1' ? `${emulator.url}/v1` : emulator.url, dialect },
    'sandbox: Slack is simulated by that page and Paperspace by a local emulator; nothing leaves this machine',
  );
  // The demo keys are fake, valid only against this process's emulator, and printed so the demo is usable.
  for (const person of SANDBOX_PEOPLE) {
    const user = emulator.state.user(person.emulatorUserId);
    if (user?.apiKey) {
      logger.info(
        `sandbox demo user: ${person.realName} (@${person.handle}, ${describeAccount(user)}): /ps login with ${loginDetails(user)}` +
          (user.accessToken && dialect === 'contract'
            ? ` (shared drives also need the access token ${user.accessToken})`
            : ''),
      );
    }
  }
}
