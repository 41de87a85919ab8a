// The Paperspace API client: one instance per user (their own API key), built from thin resource
// modules over one HTTP core. Connection pooling is shared through the injected undici dispatcher.
import type { Dispatcher } from 'undici';
import { dialectOf } from './dialect.js';
import { createGraphqlCaller } from './graphql.js';
import { createHttpCore, type ResponseEvent } from './http.js';
import { createContractClient } from './legacy/client.js';
import type { ResourceContext } from './legacy/context.js';
import type { PaperspaceClient } from './resources.js';
import { createRedactor } from './response-body.js';
import { abortableSleep, type Sleep } from './sleep.js';
import { createV1Client } from './v1/client.js';

export interface PaperspaceClientOptions {
  /** The user's own API key; never global, never logged, redacted from every error. */
  apiKey: string;
  /** Bearer token for the GraphQL shared-drive operations. */
  accessToken?: string;
  /**
   * REST base URL. A path ending in `/v1` (https://api.paperspace.com/v1) speaks today's v1 API with
   * Bearer keys; any other (https://api.paperspace.io) speaks the contract's legacy API.
   */
  baseUrl: string;
  /** GraphQL endpoint, e.g. https://api.paperspace.com/graphql */
  graphqlUrl: string;
  /** Per request (each attempt), default 30 000. */
  timeoutMs?: number;
  /** Retries of safe operations (GETs, start, stop), default 3. */
  maxRetries?: number;
  /** Shared connection pool across users' clients; undici's global dispatcher when absent. */
  dispatcher?: Dispatcher;
  /** Called after every attempt, for metrics and logs; carries no secret. */
  onResponse?: (event: ResponseEvent) => void;
  /** Sent as X-Request-Id so logs on both sides can be correlated. */
  requestId?: string;
  /**
   * Without requestId: the id to send, read as each call is made. A client kept for many requests
   * (vault/paperspace-clients.ts) sends each call with the id of the request it is made for.
   */
  currentRequestId?: () => string | undefined;
  /** Injectable for tests: retry backoff and waitForState polling wait through it. */
  sleep?: Sleep;
  /** Jitter source, injectable for tests; Math.random by default. */
  random?: () => number;
  /** Clock for waitForState deadlines and Retry-After dates; Date.now by default. */
  now?: () => number;
}

// Defined beside the resources it is made of, so the dialects' clients can name it without importing
// this module (which imports them).
export type { PaperspaceClient };

const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;

export function createPaperspaceClient(options: PaperspaceClientOptions): PaperspaceClient {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError("createPaperspaceClient needs the user's apiKey (a non-empty string).");
  }
  const baseUrl = httpUrl(options.baseUrl, 'baseUrl');
  const graphqlUrl = httpUrl(options.graphqlUrl, 'graphqlUrl');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError('createPaperspaceClient: timeoutMs must be a positive number of milliseconds.');
  }
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new TypeError('createPaperspaceClient: maxRetries must be a whole number, 0 or more.');
  }

  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const accessToken = options.accessToken?.trim() ? options.accessToken : undefined;
  const redact = createRedactor([options.apiKey, accessToken]);
  const core = createHttpCore({
    apiKey: options.apiKey,
    accessToken,
    timeoutMs,
    maxRetries,
    dispatcher: options.dispatcher,
    onResponse: options.onResponse,
    requestId: requestIdOf(options),
    sleep,
    random: options.random ?? Math.random,
    now,
    redact,
  });
  const base = baseUrl.replace(/\/+$/, '');
  const dialect = baseDialect(baseUrl);
  if (dialect === 'v1') return createV1Client(core, base, sleep, now);
  const context: ResourceContext = {
    core,
    graphql: createGraphqlCaller({ core, graphqlUrl, redact }),
    restUrl: (path) => `${base}${path}`,
    sleep,
    now,
  };
  return createContractClient(context);
}

/**
 * `compute`, remembered for the last few keys it answered. A client is built for every poll of every
 * person (the key is kept, the client is not: person-keys.ts), and parsing the same base URLs every
 * time was a quarter of building one. The bot has a URL or two; the bound only keeps a caller that
 * builds clients for endless URLs from growing the memory.
 */
const REMEMBERED_KEYS = 16;

function remembered<T>(compute: (key: string) => T): (key: string) => T {
  const kept = new Map<string, T>();
  return (key) => {
    if (kept.has(key)) return kept.get(key) as T;
    const value = compute(key);
    if (kept.size >= REMEMBERED_KEYS) kept.clear();
    kept.set(key, value);
    return value;
  };
}

/** `value` normalised when it is an absolute http(s) URL; undefined when it is not. */
const normalisedHttpUrl = remembered((value): string | undefined => {
  if (!URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
});

function httpUrl(value: string, name: string): string {
  const url = normalisedHttpUrl(value);
  if (url === undefined) {
    throw new TypeError(`createPaperspaceClient: ${name} must be an absolute http(s) URL.`);
  }
  return url;
}

const baseDialect = remembered(dialectOf);

const noRequestId = () => undefined;

function requestIdOf(options: PaperspaceClientOptions): () => string | undefined {
  const { requestId } = options;
  if (requestId !== undefined) return () => requestId;
  return options.currentRequestId ?? noRequestId;
}
