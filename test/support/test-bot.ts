// The whole bot as production wires it (src/bot.ts), on port 0, against the Paperspace emulator and a
// fake Slack Web API, with a real SQLite file and a real key vault. End-to-end tests drive it with
// correctly signed Slack requests and assert on what reached Slack and Paperspace.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { type RunningBot, startBot } from '../../src/bot.js';
import type { SlackPacing } from '../../src/config.js';
import type { MachineWatcher, WatchRequest } from '../../src/features/machines/machine-watcher.js';
import { createLogger } from '../../src/logger.js';
import { createRequestScope } from '../../src/observability/request-scope.js';
import type { Dialect } from '../../src/paperspace/dialect.js';
import { manualTimers, realTimers, type Scheduler } from '../../src/scheduler/scheduler.js';
import { createMetadataSeal, METADATA_SEAL_PURPOSE } from '../../src/slack/metadata-seal.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../tools/emulator/index.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { createManualCron, type ManualCron } from './manual-cron.js';
import { type RecordedRequest, type RecordingProxy, startRecordingProxy } from './recording-proxy.js';
import {
  createSlackRequests,
  type SlackRequest,
  type SlackRequests,
  type SlackResponse,
  send,
} from './slack-requests.js';
import { bothHooks, createV1AnswerCheck } from './v1-answer-check.js';

export const SIGNING_SECRET = 'e2e-signing-secret';
export const BOT_TOKEN = 'xoxb-e2e-bot-token';
export const APP_TOKEN = 'xapp-1-A0FAKE-e2e-app-token';
export const TEAM_ID = 'T0FAKE';

/** Slack users of the tests, each paired with a demo account of the emulator's built-in seed. */
export const USERS = {
  ada: {
    /** Slack's users.info is_admin: an individual Paperspace account: not an admin of the Slack workspace. */
    slackAdmin: false,
    slackId: 'U0ADA',
    /** The name on the Slack profile. */
    realName: 'Ada Park',
    emulatorUserId: 'u1ada',
    /** The e-mail on the Slack profile, the same as in Paperspace. */
    email: 'ada.park@example.com',
    apiKey: 'demo-key-ada-individual',
    accessToken: 'demo-token-ada-individual',
  },
  maya: {
    /** Slack's users.info is_admin: administers the Orbital team, and the Slack workspace. */
    slackAdmin: true,
    slackId: 'U0MAYA',
    /** The name on the Slack profile. */
    realName: 'Maya Chen',
    emulatorUserId: 'u1maya',
    /** The e-mail on the Slack profile, the same as in Paperspace. */
    email: 'maya.chen@orbital.example',
    apiKey: 'demo-key-maya-team-admin',
    accessToken: 'demo-token-maya-team-admin',
  },
  sam: {
    /** Slack's users.info is_admin: a member of the Orbital team and of the workspace. */
    slackAdmin: false,
    slackId: 'U0SAM',
    /** The name on the Slack profile. */
    realName: 'Sam Rivera',
    emulatorUserId: 'u1sam',
    /** The e-mail on the Slack profile, the same as in Paperspace. */
    email: 'sam.rivera@orbital.example',
    apiKey: 'demo-key-sam-team-member',
    accessToken: 'demo-token-sam-team-member',
  },
} as const;
export type TestUserName = keyof typeof USERS;

export interface TestBotOptions {
  emulator?: EmulatorOptions;
  /**
   * Which API the bot speaks to the emulator: its contract routes, or v1 under /v1. Defaults to
   * TEST_PAPERSPACE_DIALECT, else the contract.
   */
  dialect?: Dialect;
  /** Replaces the scheduler as the listeners' watcher (the scheduler still runs reminders and shares). */
  watcher?: MachineWatcher;
  /** The bot's clock: scheduler, store, audit. Pass the emulator's fake clock to drive both. */
  now?: () => number;
  /**
   * Poll on real timers at this interval. By default nothing polls on its own: tests call
   * `bot.scheduler.tick()`, so a background tick never races a test's assertions.
   */
  pollIntervalMs?: number;
  /**
   * Sends the bot's Paperspace REST calls through a recording proxy, so `paperspaceRequests` shows their
   * headers (the emulator's request log keeps no headers).
   */
  recordPaperspaceHeaders?: boolean;
  /** stop()'s bound on Slack requests under way (the bot's default is 10 s). */
  shutdownGraceMs?: number;
  /**
   * The bot's pace of posts (production's SLACK_PACING for a test of the pace itself, on the real
   * clock). None by default: most tests post a few messages, and a fake clock would not move its waits.
   */
  slackPacing?: SlackPacing;
  /**
   * How Slack's requests reach the bot: signed HTTP POSTs (`send`), or envelopes over Socket Mode
   * (`slack.socketMode.deliver`), with the port serving only /healthz and /metrics. Default http.
   */
  transport?: 'http' | 'socket';
  /** The store's URL (a PostgreSQL schema); default a fresh SQLite file, `databasePath`. */
  databaseUrl?: string;
  /** The store as the bot sees it, on every run (a fault between two of its steps). */
  wrapStore?: (store: Store) => Store;
}

export interface TestBot {
  /** Which API the bot speaks to the emulator. */
  dialect: Dialect;
  url: string;
  /** The port the bot serves Slack, /healthz and /metrics on. */
  port: number;
  emulator: RunningEmulator;
  slack: FakeSlack;
  requests: SlackRequests;
  store: Store;
  vault: KeyVault;
  /** The SQLite file, to check that no secret reaches the disk in plaintext. */
  databasePath: string;
  /** Everything the bot logged, as raw JSON lines. */
  logText(): string;
  /** Every watch request the listeners made, in order (recorded on the way to the scheduler). */
  watchRequests: WatchRequest[];
  /** The real scheduler of the bot; `tick()` polls once. */
  scheduler: Scheduler;
  /** Reminders fire from here: move the clock, then `cron.runDue()`. */
  cron: ManualCron;
  /** Paperspace REST calls as the proxy saw them (with headers); empty unless recordPaperspaceHeaders. */
  paperspaceRequests: RecordedRequest[];
  send(request: SlackRequest): Promise<SlackResponse>;
  /** GET a path of the bot's HTTP server (/healthz, /metrics). */
  get(path: string): Promise<{ status: number; contentType: string | null; text: string }>;
  /**
   * Stops the bot and starts it again over the same database file and vault key, against the same
   * emulator and fake Slack, as a deploy or a crash and restart would; store, vault, scheduler, url and
   * port are the new run's afterwards.
   */
  restart(): Promise<void>;
  /** The bot's own stop() (the running bot's graceful shutdown); close() afterwards still cleans up. */
  stop(options?: { drainMs?: number }): Promise<void>;
  /** Links a demo user's key straight into the vault (the login modal has its own tests). */
  link(name: TestUserName, options?: { withAccessToken?: boolean }): Promise<void>;
  /** `payload` sealed as the bot seals what it puts into private_metadata (a test's own metadata). */
  sealMetadata(payload: string): string;
  /** What the bot put into a view's private_metadata, once its seal is checked. */
  openMetadata(sealed: string): string;
  /**
   * Throws if any v1 exchange since the last call broke the OpenAPI: an emulator answer, or a request
   * the bot sent. useTestBot calls it after each test; close() calls it last.
   */
  assertV1Specification(): void;
  close(): Promise<void>;
}

export async function startTestBot(options: TestBotOptions = {}): Promise<TestBot> {
  const directory = await mkdtemp(join(tmpdir(), 'ps-bot-e2e-'));
  const databasePath = join(directory, 'bot.db');
  let logs = '';
  // Wired as main.ts does: the logger and the bot share the request scope, so lines carry request ids.
  const requestScope = createRequestScope();
  const logger = createLogger({
    level: 'debug',
    requestScope,
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        logs += chunk.toString('utf8');
        callback();
      },
    }),
  });
  const now = options.now ?? Date.now;
  // The bot is the emulator's only client here, so what it sends is checked as well as the answers.
  const v1Check = createV1AnswerCheck({ requests: true });
  const emulator = await startEmulator({
    transitionMs: 1000,
    ...options.emulator,
    onExchange: bothHooks(v1Check, options.emulator?.onExchange),
  });
  const dialect = options.dialect ?? (process.env.TEST_PAPERSPACE_DIALECT === 'v1' ? 'v1' : 'contract');
  const slack = await startFakeSlack({
    teamId: TEAM_ID,
    users: Object.values(USERS).map((user) => ({
      id: user.slackId,
      real_name: user.realName,
      tz: 'Europe/Amsterdam',
      email: user.email,
      is_admin: user.slackAdmin,
    })),
  });
  let proxy: RecordingProxy | undefined;
  if (options.recordPaperspaceHeaders) proxy = await startRecordingProxy(emulator.url);
  const vaultKey = randomBytes(32);
  let store = await openStore(options.databaseUrl ?? `sqlite:${databasePath}`, { now });
  let vault = createKeyVault({ keys: [vaultKey], store, now });
  const watchRequests: WatchRequest[] = [];
  const cron = createManualCron(now);
  // A power request stores its watch before the call, as its intent (machines/power-intent.ts): it is
  // recorded here once the call was answered, with where the card went, as the request to watch the
  // machine it has then become. A request Paperspace refused is never recorded.
  const intents = new Map<string, WatchRequest>();
  const recording = (inner: MachineWatcher): MachineWatcher => ({
    async watch(request) {
      if (!request.pending) {
        watchRequests.push(request);
        return inner.watch(request);
      }
      const created = await inner.watch(request);
      intents.set(created.id, request);
      return created;
    },
  });
  const recordingSent = (opened: Store): Store => ({
    ...opened,
    watches: {
      ...opened.watches,
      async markSent(id, sent) {
        const result = await opened.watches.markSent(id, sent);
        const request = intents.get(id);
        if (request !== undefined && result.recorded) {
          intents.delete(id);
          const { pending: _pending, ...asked } = request;
          watchRequests.push({
            ...asked,
            channel: sent.channel ?? asked.channel,
            ...(sent.messageTs === undefined ? {} : { messageTs: sent.messageTs }),
            ...(sent.threadTs === undefined ? {} : { threadTs: sent.threadTs }),
            ...(sent.lastState === undefined ? {} : { initialState: sent.lastState }),
            eventId: sent.eventId ?? null,
          });
        }
        return result;
      },
    },
  });
  const boot = () =>
    startBot({
      slack:
        options.transport === 'socket'
          ? { mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, apiUrl: slack.apiUrl }
          : { mode: 'http', botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl },
      paperspace: {
        apiUrl: `${proxy?.url ?? emulator.url}${dialect === 'v1' ? '/v1' : ''}`,
        graphqlUrl: emulator.graphqlUrl,
      },
      port: 0,
      store: recordingSent(options.wrapStore?.(store) ?? store),
      vault,
      logger,
      scheduler: {
        pollIntervalMs: options.pollIntervalMs ?? 5000,
        timers: options.pollIntervalMs === undefined ? manualTimers : realTimers,
        cron,
        replicaId: 'test-bot',
        slackPacing: options.slackPacing ?? null,
      },
      wrapWatcher: (scheduler) => recording(options.watcher ?? scheduler),
      now,
      requestScope,
      // Process metrics watch the event loop and GC for the process's lifetime; tests start many bots.
      observability: { processMetrics: false },
      ...(options.shutdownGraceMs === undefined ? {} : { shutdownGraceMs: options.shutdownGraceMs }),
    });
  let bot: RunningBot;
  try {
    bot = await boot();
  } catch (error) {
    await Promise.allSettled([emulator.close(), slack.close(), store.close(), proxy?.close()]);
    throw error;
  }
  let url = `http://127.0.0.1:${bot.port}`;
  const requests = createSlackRequests({
    signingSecret: SIGNING_SECRET,
    responseUrl: slack.responseUrl,
    slack,
    teamId: TEAM_ID,
    userId: USERS.ada.slackId,
    botUserId: slack.botUserId,
  });

  let runningBot = bot;
  const metadataSeal = createMetadataSeal(vault.derivedKeys(METADATA_SEAL_PURPOSE));
  return {
    get url() {
      return url;
    },
    get port() {
      return runningBot.port;
    },
    emulator,
    dialect,
    slack,
    requests,
    get store() {
      return store;
    },
    get vault() {
      return vault;
    },
    databasePath,
    logText: () => logs,
    watchRequests,
    get scheduler() {
      return runningBot.scheduler;
    },
    cron,
    paperspaceRequests: proxy?.requests ?? [],
    send: (request) => send(url, request),
    async get(path) {
      const response = await fetch(`${url}${path}`);
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        text: await response.text(),
      };
    },
    async restart() {
      await runningBot.stop();
      await store.close();
      store = await openStore(options.databaseUrl ?? `sqlite:${databasePath}`, { now });
      vault = createKeyVault({ keys: [vaultKey], store, now });
      runningBot = await boot();
      url = `http://127.0.0.1:${runningBot.port}`;
    },
    stop: (stopOptions) => runningBot.stop(stopOptions),
    async link(name, linkOptions = {}) {
      const user = USERS[name];
      const account = emulator.state.user(user.emulatorUserId);
      if (!account) throw new Error(`the emulator seed has no user ${user.emulatorUserId}`);
      await vault.link(
        { teamId: TEAM_ID, userId: user.slackId },
        {
          apiKey: user.apiKey,
          ...(linkOptions.withAccessToken ? { accessToken: user.accessToken } : {}),
          account: {
            userId: account.id,
            email: account.email,
            // As Paperspace answers for every account, an individual one too (its own team id).
            teamId: account.accountId,
          },
        },
      );
    },
    sealMetadata: (payload) => metadataSeal.seal(payload),
    openMetadata(sealed) {
      const payload = metadataSeal.open(sealed);
      if (payload === undefined) throw new Error(`private_metadata is not sealed by the bot: ${sealed}`);
      return payload;
    },
    assertV1Specification: () => v1Check.assertNoProblems(),
    async close() {
      await runningBot.stop();
      await Promise.allSettled([emulator.close(), slack.close(), proxy?.close()]);
      await store.close();
      await rm(directory, { recursive: true, force: true });
      v1Check.assertNoProblems();
    },
  };
}
