// startEmulator: a node:http server that answers the contract's REST paths, the GraphQL shared
// drive operations and Paperspace's v1 API (under /v1) from one in-memory world. Each request passes, in order: body reading, injected
// faults and the rate limit, routing, authentication, the route's handler, then the optional latency.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { authenticateGraphql, authenticateRest, credentialOf } from './auth.js';
import type { Clock } from './clock.js';
import { createControl, type EmulatorControl, type RequestLogEntry } from './control.js';
import { delegationRoutes } from './delegation-routes.js';
import { DEMO_SEED } from './demo-seed.js';
import { directoryRoutes } from './directory-routes.js';
import { EmulatorError, graphqlErrorBody, internalError, restErrorBody } from './errors.js';
import { createFaults } from './faults.js';
import { executeDrivesGraphql } from './graphql-drives.js';
import { machineCreateRoutes } from './machine-create.js';
import { machineRoutes } from './machine-routes.js';
import { matchRoute, type Reply, type Route } from './router.js';
import { scriptRoutes } from './script-routes.js';
import { loadSeed } from './seed.js';
import { usageRoutes } from './usage-routes.js';
import { v1ErrorBody } from './v1/errors.js';
import { answerV1, isV1Path, V1_PREFIX } from './v1/serve.js';
import { createIdSource, createWorld, type EmulatorCore } from './world.js';

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** A seed object (see docs/emulator.md); the built-in demo seed when absent. */
  readonly seed?: unknown;
  /** Length of each timed state (provisioning, starting, stopping, restarting); default 2000 ms. */
  readonly transitionMs?: number;
  /** Delay before every answer, in real milliseconds. */
  readonly latencyMs?: number;
  /** Share of requests (0 to 1) answered with 500. */
  readonly failRate?: number;
  /** Requests per second per key before 429 with Retry-After. */
  readonly rateLimit?: number;
  readonly now?: Clock;
  /** Decides which requests --fail-rate fails; inject seededRandom(n) for repeatable runs. */
  readonly random?: () => number;
  /**
   * v1 lists answer every page after the first with one item fewer than `limit`, as real v1 pages
   * may be short, so clients must follow `nextPage`. Default true; false gives full pages.
   */
  readonly shortPages?: boolean;
  /**
   * How many of the most recent requests `state.requests()` keeps; default 10,000, so a long demo stays
   * small. A benchmark that counts one tick of 11,000 calls asks for more.
   */
  readonly requestLogLimit?: number;
  /**
   * Called with every request as it is logged, before its answer is sent (and whether or not the log
   * still keeps it): tests pass a check of each v1 answer against the OpenAPI here, which lives with
   * the tests since the emulator must not judge itself by its own reading of the document.
   */
  readonly onExchange?: (entry: RequestLogEntry) => void;
}

export interface RunningEmulator {
  /** REST base URL of the contract, such as http://127.0.0.1:4010 */
  readonly url: string;
  /** Base URL of the v1 API, such as http://127.0.0.1:4010/v1 */
  readonly v1Url: string;
  readonly graphqlUrl: string;
  readonly state: EmulatorControl;
  close(): Promise<void>;
}

const GRAPHQL_PATH = '/graphql';
const MAX_BODY_BYTES = 1024 * 1024;
/** The request log keeps the most recent entries only (by default), so a long demo run stays small. */
const REQUEST_LOG_LIMIT = 10_000;

const ROUTES: readonly Route[] = [
  ...machineCreateRoutes,
  ...machineRoutes,
  ...usageRoutes,
  ...scriptRoutes,
  ...directoryRoutes,
  ...delegationRoutes,
];

function checkOptions(options: EmulatorOptions): void {
  const check = (ok: boolean, message: string) => {
    if (!ok) throw new RangeError(message);
  };
  const { port = 0, transitionMs = 0, latencyMs = 0, failRate = 0, rateLimit = 1 } = options;
  check(
    Number.isInteger(port) && port >= 0 && port <= 65535,
    `port must be an integer from 0 to 65535, got ${port}`,
  );
  check(Number.isFinite(transitionMs) && transitionMs >= 0, `transitionMs must be >= 0, got ${transitionMs}`);
  check(Number.isFinite(latencyMs) && latencyMs >= 0, `latencyMs must be >= 0, got ${latencyMs}`);
  check(failRate >= 0 && failRate <= 1, `failRate must be between 0 and 1, got ${failRate}`);
  check(
    Number.isInteger(rateLimit) && rateLimit >= 1,
    `rateLimit must be a positive integer, got ${rateLimit}`,
  );
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // An oversized body is read to its end and dropped, so the client gets the 413 instead of a reset.
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size <= MAX_BODY_BYTES) chunks.push(buffer);
  }
  if (size > MAX_BODY_BYTES)
    throw new EmulatorError(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new EmulatorError(400, 'Request body is not valid JSON');
  }
}

function parsedOrUndefined(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

function send(response: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) {
    response.writeHead(reply.status, headers).end();
    return;
  }
  const text = JSON.stringify(reply.body);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = String(Buffer.byteLength(text));
  response.writeHead(reply.status, headers).end(text);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  checkOptions(options);
  const now = options.now ?? Date.now;
  const world = createWorld();
  const core: EmulatorCore = {
    world,
    now,
    transitionMs: options.transitionMs ?? 2000,
    ids: createIdSource(world),
  };
  loadSeed(core, options.seed ?? DEMO_SEED);
  const faults = createFaults({
    failRate: options.failRate ?? 0,
    rateLimit: options.rateLimit ?? null,
    random: options.random ?? Math.random,
    now,
  });
  const requestLog: RequestLogEntry[] = [];
  // The parsed JSON body of each request, for its log entry (contract tests check what was sent).
  const requestBodies = new WeakMap<IncomingMessage, unknown>();

  async function answer(request: IncomingMessage, url: URL): Promise<Reply> {
    const isGraphql = url.pathname === GRAPHQL_PATH;
    const isV1 = isV1Path(url.pathname);
    const errorBody = isGraphql ? graphqlErrorBody : isV1 ? v1ErrorBody : restErrorBody;
    const asReply = (error: EmulatorError): Reply => ({
      status: error.status,
      body: errorBody(error),
      headers: error.headers,
    });
    try {
      const text = await readBody(request);
      const key = credentialOf(request.headers) ?? `address:${request.socket.remoteAddress}`;
      await faults.whenServed(key);
      const fault = faults.check(key, url.pathname);
      if (fault) {
        // The fault answers before the body is read as JSON, but the log still shows what was sent.
        requestBodies.set(request, parsedOrUndefined(text));
        return asReply(fault);
      }
      const body = parseJson(text);
      requestBodies.set(request, body);
      if (isV1) {
        return answerV1(
          core,
          {
            method: request.method ?? 'GET',
            pathname: url.pathname,
            headers: request.headers,
            query: url.searchParams,
            body,
          },
          { shortPages: options.shortPages ?? true },
        );
      }
      if (isGraphql) {
        if (request.method !== 'POST') throw new EmulatorError(405, 'GraphQL requests use POST');
        return await executeDrivesGraphql(core, authenticateGraphql(core, request.headers), body);
      }
      const match = matchRoute(ROUTES, request.method ?? 'GET', url.pathname);
      if (match.kind === 'missing') {
        throw new EmulatorError(404, `No such endpoint: ${request.method} ${url.pathname}`);
      }
      const caller = authenticateRest(core, request.headers);
      if (caller.kind === 'delegation' && match.route.access !== 'delegated') {
        throw new EmulatorError(403, 'A delegated access token only allows reading the delegated machines');
      }
      return match.route.handle({ core, caller, params: match.params, query: url.searchParams, body });
    } catch (error) {
      if (error instanceof EmulatorError) return asReply(error);
      return asReply(
        internalError(`Emulator bug: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
  }

  // Who called, by user id rather than key: tests count calls per person without handling keys.
  // v1 sends the key as a Bearer token; a delegation's access token matches no user and logs null.
  const userIdOf = (request: IncomingMessage) => {
    const key = credentialOf(request.headers);
    if (key === null) return null;
    return core.world.users.withApiKey(key)?.id ?? null;
  };

  const server = createServer((request, response) => {
    // Prefixing the origin keeps a path such as `//x` a path instead of a host.
    const url = new URL(`http://emulator.invalid${request.url ?? '/'}`);
    void answer(request, url)
      .then(async (reply) => {
        if (requestLog.length >= (options.requestLogLimit ?? REQUEST_LOG_LIMIT)) requestLog.shift();
        const entry: RequestLogEntry = {
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.search,
          status: reply.status,
          at: now(),
          userId: userIdOf(request),
          body: requestBodies.get(request),
          reply: reply.body,
        };
        requestLog.push(entry);
        options.onExchange?.(entry);
        if (options.latencyMs) await delay(options.latencyMs);
        send(response, reply);
      })
      .catch(() => response.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Paperspace takes any number of connections; Node's default backlog (511) would drop some of a burst's.
    server.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1', backlog: 4096 }, () =>
      resolve(),
    );
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  return {
    url,
    v1Url: `${url}${V1_PREFIX}`,
    graphqlUrl: `${url}${GRAPHQL_PATH}`,
    state: createControl(core, faults, requestLog),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
