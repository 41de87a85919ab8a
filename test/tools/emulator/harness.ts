// Starts the emulator on port 0 with the test seed and a fake clock, and talks to it over real HTTP.
import { afterEach, expect } from 'vitest';
import {
  createFakeClock,
  type EmulatorOptions,
  type FakeClock,
  type RunningEmulator,
  startEmulator,
} from '../../../tools/emulator/index.js';
import { bothHooks, createV1AnswerCheck, type V1AnswerCheck } from '../../support/v1-answer-check.js';
import { TEST_SEED } from './test-seed.js';

/** Every timed state lasts this long in tests; the fake clock is advanced past it. */
export const TRANSITION_MS = 1000;

export interface ApiResponse {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers field by field
  readonly body: any;
  readonly text: string;
  readonly headers: Headers;
}

interface CallOptions {
  readonly key?: string;
  readonly token?: string;
  readonly body?: unknown;
  readonly query?: Record<string, string | number | boolean>;
}

export interface Harness {
  readonly emulator: RunningEmulator;
  readonly clock: FakeClock;
  get(path: string, options?: CallOptions): Promise<ApiResponse>;
  post(path: string, options?: CallOptions): Promise<ApiResponse>;
  graphql(
    token: string | undefined,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<ApiResponse>;
}

const running: RunningEmulator[] = [];
// Every v1 answer is checked against the OpenAPI; answers only, as these tests send malformed
// requests on purpose.
const checks: V1AnswerCheck[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((emulator) => emulator.close()));
  for (const check of checks.splice(0)) check.assertNoProblems();
});

async function send(url: string, method: string, options: CallOptions): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers['X-Api-Key'] = options.key;
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : JSON.parse(text),
    text,
    headers: response.headers,
  };
}

/** An emulator closed automatically after the test. */
export async function startHarness(options: EmulatorOptions = {}): Promise<Harness> {
  const clock = createFakeClock(Date.UTC(2024, 4, 15, 9, 0, 0));
  const check = createV1AnswerCheck();
  const emulator = await startEmulator({
    seed: TEST_SEED,
    transitionMs: TRANSITION_MS,
    now: clock.now,
    ...options,
    onExchange: bothHooks(check, options.onExchange),
  });
  running.push(emulator);
  checks.push(check);
  const url = (path: string, query: CallOptions['query']) => {
    const search = new URLSearchParams(
      Object.entries(query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
    );
    return `${emulator.url}${path}${search.size ? `?${search}` : ''}`;
  };
  return {
    emulator,
    clock,
    get: (path, options = {}) => send(url(path, options.query), 'GET', options),
    post: (path, options = {}) => send(url(path, options.query), 'POST', options),
    graphql: (token, query, variables) =>
      send(emulator.graphqlUrl, 'POST', { ...(token ? { token } : {}), body: { query, variables } }),
  };
}

/** The nested error shape most failures use. */
export function nestedError(status: number) {
  return { error: { name: 'Error', status, message: expect.any(String) } };
}
