// The contract tests' world: the real emulator on port 0 with its demo seed, and real Paperspace
// clients for the demo users talking HTTP to it. One fake clock drives both sides: the clients'
// `sleep` (retry backoff, waitForState polling) advances it instead of waiting, so transitions that
// take seconds in the emulator pass in no real time and every wait the client makes is recorded.
import { request } from 'undici';
import { afterEach } from 'vitest';
import {
  createPaperspaceClient,
  type PaperspaceClient,
  type PaperspaceClientOptions,
} from '../../src/paperspace/client.js';
import type { Dialect } from '../../src/paperspace/dialect.js';
import { createHttpCore, type HttpCore } from '../../src/paperspace/http.js';
import { createRedactor } from '../../src/paperspace/response-body.js';
import type { Sleep } from '../../src/paperspace/sleep.js';
import {
  createFakeClock,
  type EmulatorControl,
  type EmulatorOptions,
  type FakeClock,
  type RequestLogEntry,
  type RunningEmulator,
  startEmulator,
} from '../../tools/emulator/index.js';
import { bothHooks, createV1AnswerCheck, type V1AnswerCheck } from '../support/v1-answer-check.js';

/** Every timed state (provisioning, starting, stopping, restarting) lasts this long. */
export const TRANSITION_MS = 1000;

/** The demo seed's users, as docs/emulator.md lists them. */
export const DEMO_USERS = {
  ada: { id: 'u1ada', apiKey: 'demo-key-ada-individual', accessToken: 'demo-token-ada-individual' },
  maya: { id: 'u1maya', apiKey: 'demo-key-maya-team-admin', accessToken: 'demo-token-maya-team-admin' },
  sam: { id: 'u1sam', apiKey: 'demo-key-sam-team-member', accessToken: 'demo-token-sam-team-member' },
} as const;
export type DemoUser = keyof typeof DEMO_USERS;

interface Credentials {
  apiKey: string;
  accessToken?: string;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers field by field
  body: any;
}

export interface RawRequest {
  method: 'GET' | 'POST';
  /** A REST path of the contract, or `/graphql`. */
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** Sent as X-Api-Key. */
  apiKey?: string;
  /** Sent as Authorization: Bearer. */
  accessToken?: string;
}

export interface ContractWorld {
  readonly emulator: RunningEmulator;
  readonly state: EmulatorControl;
  readonly clock: FakeClock;
  readonly ada: PaperspaceClient;
  readonly maya: PaperspaceClient;
  readonly sam: PaperspaceClient;
  /** Every wait any client of this world asked for, in milliseconds, in order. */
  readonly sleeps: number[];
  /** Another client of this world: another user, other credentials or other options. */
  client(who: DemoUser | Credentials, options?: Partial<PaperspaceClientOptions>): PaperspaceClient;
  /**
   * Runs `action` when a client's sleep carries the clock `afterMs` past now: something another
   * person does while a client is waiting (starting the machine, destroying it).
   */
  at(afterMs: number, action: () => Promise<unknown> | unknown): void;
  /** The emulator's request log from `mark` (a length of the log taken earlier) on. */
  requestsSince(mark: number): RequestLogEntry[];
  /** The current length of the request log, for requestsSince. */
  mark(): number;
  /** A request sent with undici as is: no client validation, no client error mapping. */
  raw(request: RawRequest): Promise<RawAnswer>;
  /**
   * The client's own HTTP core for `who`, without any resource's validation in front of it: sends
   * what a raw request sends, and maps the answer the way every client call does.
   */
  core(who: DemoUser): HttpCore;
}

const running: RunningEmulator[] = [];
// Answers only: these tests send malformed requests on purpose, to see them refused.
const checks: V1AnswerCheck[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
  for (const check of checks.splice(0)) check.assertNoProblems();
});

export interface ContractWorldOptions extends EmulatorOptions {
  /** Which API the world's clients speak to the emulator: its contract routes or those under /v1. */
  dialect?: Dialect;
}

/** Starts the emulator with the demo seed and a fake clock; it is closed after the test. */
export async function startContractWorld({
  dialect = 'contract',
  ...options
}: ContractWorldOptions = {}): Promise<ContractWorld> {
  const clock = createFakeClock(Date.UTC(2024, 4, 15, 9, 0, 0));
  const check = createV1AnswerCheck();
  const emulator = await startEmulator({
    port: 0,
    now: clock.now,
    transitionMs: TRANSITION_MS,
    ...options,
    onExchange: bothHooks(check, options.onExchange),
  });
  running.push(emulator);
  checks.push(check);

  const sleeps: number[] = [];
  const scheduled: Array<{ at: number; action: () => Promise<unknown> | unknown }> = [];

  async function runDueActions() {
    for (;;) {
      const index = scheduled.findIndex((entry) => entry.at <= clock.now());
      const due = scheduled[index];
      if (!due) return;
      scheduled.splice(index, 1);
      await due.action();
    }
  }

  const sleep: Sleep = async (ms, signal) => {
    signal?.throwIfAborted();
    sleeps.push(ms);
    clock.advance(ms);
    await runDueActions();
  };

  const credentialsOf = (who: DemoUser | Credentials): Credentials =>
    typeof who === 'string' ? DEMO_USERS[who] : who;

  const client = (who: DemoUser | Credentials, clientOptions: Partial<PaperspaceClientOptions> = {}) =>
    createPaperspaceClient({
      ...credentialsOf(who),
      baseUrl: dialect === 'v1' ? `${emulator.url}/v1` : emulator.url,
      graphqlUrl: emulator.graphqlUrl,
      sleep,
      now: clock.now,
      // No jitter: backoffs are exactly 500, 1000, 2000 ms, so tests can name them.
      random: () => 0,
      ...clientOptions,
    });

  const log = () => emulator.state.requests();

  return {
    emulator,
    state: emulator.state,
    clock,
    ada: client('ada'),
    maya: client('maya'),
    sam: client('sam'),
    sleeps,
    client,
    at: (afterMs, action) => scheduled.push({ at: clock.now() + afterMs, action }),
    mark: () => log().length,
    requestsSince: (mark) => log().slice(mark),
    async raw({ method, path, query, body, apiKey, accessToken }) {
      const url = new URL(path, emulator.url);
      for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, String(value));
      const headers: Record<string, string> = {};
      if (apiKey !== undefined) headers['x-api-key'] = apiKey;
      if (accessToken !== undefined) headers.authorization = `Bearer ${accessToken}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await request(url, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: response.headers,
        text,
        body: text === '' ? undefined : JSON.parse(text),
      };
    },
    core(who) {
      const { apiKey, accessToken } = DEMO_USERS[who];
      return createHttpCore({
        apiKey,
        accessToken,
        timeoutMs: 5_000,
        maxRetries: 0,
        dispatcher: undefined,
        onResponse: undefined,
        requestId: () => undefined,
        sleep,
        random: () => 0,
        now: clock.now,
        redact: createRedactor([apiKey, accessToken]),
      });
    },
  };
}

/** What a caught promise rejected with, so a test can look at the error's class and message. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`The promise rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('Expected the promise to reject, but it resolved');
}

/** Every key and token of the demo users: none may ever appear in an error message. */
export const DEMO_SECRETS: readonly string[] = Object.values(DEMO_USERS).flatMap((user) => [
  user.apiKey,
  user.accessToken,
]);
