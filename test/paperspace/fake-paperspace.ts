// A scripted Paperspace for tests: a real node:http server on port 0 that records every request and
// answers with whatever the test's handler returns. The client under test talks real HTTP to it.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createPaperspaceClient,
  type PaperspaceClient,
  type PaperspaceClientOptions,
} from '../../src/paperspace/client.js';

export const API_KEY = 'ps-key-5ecret-0000-aaaa';
export const ACCESS_TOKEN = 'ps-token-5ecret-1111-bbbb';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The body parsed as JSON; undefined when there is none. */
  body: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Serialised as JSON. */
  json?: unknown;
  /** Sent as is (takes precedence over json). */
  text?: string;
  /** Never answer; the request stays open until the client gives up or the server closes. */
  hang?: boolean;
}

export type Handler = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface FakePaperspace {
  url: string;
  graphqlUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakePaperspace(handler: Handler): Promise<FakePaperspace> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        rawBody,
        body: rawBody ? JSON.parse(rawBody) : undefined,
      };
      requests.push(recorded);
      const reply = await handler(recorded, requests.length - 1);
      if (reply.hang) return;
      const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      res.writeHead(reply.status ?? 200, {
        ...(reply.text === undefined && reply.json !== undefined
          ? { 'content-type': 'application/json' }
          : {}),
        ...reply.headers,
      });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    graphqlUrl: `${url}/graphql`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers `replies` in order, repeating the last one. */
export function inSequence(...replies: Reply[]): Handler {
  return (_request, index) => replies[Math.min(index, replies.length - 1)] ?? {};
}

export interface TestClient {
  client: PaperspaceClient;
  /** Every wait the client asked for, in ms: retry backoffs and poll intervals. */
  sleeps: number[];
  /** The fake clock, advanced by each sleep. */
  clock: { now: number };
}

/** A client against `server` whose sleeps return at once and advance a fake clock. */
export function testClient(
  server: FakePaperspace,
  overrides: Partial<PaperspaceClientOptions> = {},
): TestClient {
  const sleeps: number[] = [];
  const clock = { now: Date.parse('2024-05-01T12:00:00Z') };
  const client = createPaperspaceClient({
    apiKey: API_KEY,
    accessToken: ACCESS_TOKEN,
    baseUrl: server.url,
    graphqlUrl: server.graphqlUrl,
    timeoutMs: 2_000,
    random: () => 0,
    now: () => clock.now,
    sleep: async (ms, signal) => {
      signal?.throwIfAborted();
      sleeps.push(ms);
      clock.now += ms;
    },
    ...overrides,
  });
  return { client, sleeps, clock };
}

/** A machine as the real API sends it: more fields than the contract lists. */
export function machineFixture(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'psabc123',
    name: 'gpu-1',
    os: 'Ubuntu 20.04',
    ram: '32212254720',
    cpus: 8,
    gpu: 'Quadro P4000',
    storageTotal: '53687091200',
    storageUsed: '110080',
    machineType: 'P4000',
    usageRate: 'P4000 hourly',
    shutdownTimeoutInHours: 1,
    shutdownTimeoutForces: false,
    performAutoSnapshot: false,
    autoSnapshotFrequency: null,
    autoSnapshotSaveCount: null,
    dynamicPublicIp: false,
    agentType: 'LinuxHeadless',
    dtCreated: '2024-04-01T09:00:00.000Z',
    state: 'off',
    updatesPending: false,
    networkId: 'nabc',
    privateIpAddress: '10.64.0.2',
    publicIpAddress: null,
    region: 'East Coast (NY2)',
    scriptId: null,
    dtLastRun: null,
    restorePointSnapshotId: null,
    restorePointFrequency: null,
    userId: 'uabc',
    teamId: 'tabc',
    ...overrides,
  };
}

export function eventFixture(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'start',
    state: 'done',
    errorMsg: '',
    handle: '6a2f0e3c-0000-4000-8000-000000000001',
    dtModified: '2024-04-01T09:01:00.000Z',
    dtFinished: '2024-04-01T09:01:00.000Z',
    dtCreated: '2024-04-01T09:00:30.000Z',
    ...overrides,
  };
}
