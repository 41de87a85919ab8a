import { createServer } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import {
  PaperspaceConnectionError,
  PaperspaceNotFoundError,
  PaperspaceRateLimitError,
  PaperspaceServerError,
  PaperspaceTimeoutError,
  PaperspaceUnexpectedResponseError,
} from '../../src/paperspace/errors.js';
import type { ResponseEvent } from '../../src/paperspace/http.js';
import {
  API_KEY,
  type FakePaperspace,
  inSequence,
  machineFixture,
  startFakePaperspace,
  testClient,
} from './fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ok = { json: [machineFixture()] };
const serverError = { status: 500, json: { error: { name: 'Error', status: 500, message: 'boom' } } };

async function freePortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

describe('the HTTP core', () => {
  it('sends the API key, asks for JSON and forwards the request id on every REST call', async () => {
    server = await startFakePaperspace(() => ok);
    const { client } = testClient(server, { requestId: 'req-42' });
    await client.machines.list();
    const [request] = server.requests;
    expect(request?.headers['x-api-key']).toBe(API_KEY);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['x-request-id']).toBe('req-42');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('routes requests through the dispatcher it is given, so users can share one pool', async () => {
    server = await startFakePaperspace(() => ok);
    let dispatched = 0;
    class CountingAgent extends Agent {
      override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
        dispatched++;
        return super.dispatch(options, handler);
      }
    }
    const dispatcher = new CountingAgent();
    const { client } = testClient(server, { dispatcher });
    await client.machines.list();
    await client.machines.list();
    await dispatcher.close();
    expect(dispatched).toBe(2);
  });

  it('retries a GET after 5xx answers with exponential backoff, then returns the data', async () => {
    server = await startFakePaperspace(inSequence(serverError, { status: 502, text: 'Bad Gateway' }, ok));
    const { client, sleeps } = testClient(server);
    const machines = await client.machines.list();
    expect(machines).toHaveLength(1);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toEqual([500, 1000]);
  });

  it('shortens each backoff by a random part of up to a quarter', async () => {
    server = await startFakePaperspace(inSequence(serverError, serverError, ok));
    const { client, sleeps } = testClient(server, { random: () => 1 });
    await client.machines.list();
    expect(sleeps).toEqual([375, 750]);
  });

  it('waits exactly the Retry-After seconds of a 429 before retrying', async () => {
    server = await startFakePaperspace(inSequence({ status: 429, headers: { 'retry-after': '7' } }, ok));
    const { client, sleeps } = testClient(server);
    await client.machines.list();
    expect(sleeps).toEqual([7000]);
  });

  it('understands Retry-After given as an HTTP date', async () => {
    let retryAt = '';
    server = await startFakePaperspace((_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': retryAt } } : ok,
    );
    const { client, sleeps, clock } = testClient(server);
    retryAt = new Date(clock.now + 5000).toUTCString();
    await client.machines.list();
    expect(sleeps).toEqual([5000]);
  });

  it('honours Retry-After on a 503 too', async () => {
    server = await startFakePaperspace(inSequence({ status: 503, headers: { 'retry-after': '3' } }, ok));
    const { client, sleeps } = testClient(server);
    await client.machines.list();
    expect(sleeps).toEqual([3000]);
  });

  it('does not wait out a Retry-After over a minute and says when to come back instead', async () => {
    server = await startFakePaperspace(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const { client, sleeps } = testClient(server);
    const error = await client.machines.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceRateLimitError);
    expect((error as PaperspaceRateLimitError).retryAfterMs).toBe(3_600_000);
    expect((error as Error).message).toContain('Try again in 1 h');
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('gives up after maxRetries retries and throws the last failure', async () => {
    server = await startFakePaperspace(() => serverError);
    const { client, sleeps } = testClient(server);
    await expect(client.machines.list()).rejects.toBeInstanceOf(PaperspaceServerError);
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([500, 1000, 2000]);
  });

  it('lets one call override the retry budget', async () => {
    server = await startFakePaperspace(() => serverError);
    const { client } = testClient(server);
    await expect(client.machines.list({}, { maxRetries: 1 })).rejects.toBeInstanceOf(PaperspaceServerError);
    expect(server.requests).toHaveLength(2);
  });

  it('never retries a 4xx other than 429', async () => {
    server = await startFakePaperspace(() => ({ status: 404, json: { status: 404, message: 'Not found' } }));
    const { client, sleeps } = testClient(server);
    await expect(client.machines.show('psmissing')).rejects.toBeInstanceOf(PaperspaceNotFoundError);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries start and stop, which the contract makes harmless to repeat', async () => {
    server = await startFakePaperspace(
      inSequence(serverError, { status: 204 }, serverError, { status: 204 }),
    );
    const { client, sleeps } = testClient(server);
    await client.machines.start('psabc123');
    await client.machines.stop('psabc123');
    expect(server.requests.map((r) => r.path)).toEqual([
      '/machines/psabc123/start',
      '/machines/psabc123/start',
      '/machines/psabc123/stop',
      '/machines/psabc123/stop',
    ]);
    expect(sleeps).toEqual([500, 500]);
  });

  it.each([
    ['restart', (c: PaperspaceClient) => c.machines.restart('psabc123')],
    ['destroy', (c: PaperspaceClient) => c.machines.destroy('psabc123')],
    [
      'create',
      (c: PaperspaceClient) =>
        c.machines.create({
          region: 'East Coast (NY2)',
          machineType: 'P4000',
          size: 50,
          billingType: 'hourly',
          machineName: 'gpu-1',
          templateId: 't123',
        }),
    ],
    ['update', (c: PaperspaceClient) => c.machines.update('psabc123', { machineName: 'x' })],
    [
      'setAccess',
      (c: PaperspaceClient) => c.machines.setAccess('psabc123', { userId: 'u1', enableAccess: true }),
    ],
    ['script create', (c: PaperspaceClient) => c.scripts.create({ scriptName: 's', scriptText: 'echo' })],
    ['script destroy', (c: PaperspaceClient) => c.scripts.destroy('sc1')],
    ['delegation create', (c: PaperspaceClient) => c.delegations.create({ machineIds: ['ps1'] })],
  ])('never retries %s, even after a 503 with Retry-After', async (_name, call) => {
    server = await startFakePaperspace(() => ({ status: 503, headers: { 'retry-after': '1' } }));
    const { client, sleeps } = testClient(server);
    await expect(call(client)).rejects.toBeInstanceOf(PaperspaceServerError);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a refused connection and then reports that Paperspace could not be reached', async () => {
    server = await startFakePaperspace(() => ok);
    const closedUrl = await freePortUrl();
    const { client, sleeps } = testClient(server, { baseUrl: closedUrl });
    const error = await client.machines.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceConnectionError);
    expect(error).not.toBeInstanceOf(PaperspaceTimeoutError);
    expect((error as Error).message).toMatch(/Could not reach Paperspace \(127\.0\.0\.1:\d+\).*ECONNREFUSED/);
    expect(sleeps).toHaveLength(3);
  });

  it('fails a request that outlasts timeoutMs with PaperspaceTimeoutError', async () => {
    server = await startFakePaperspace(() => ({ hang: true }));
    const { client } = testClient(server, { timeoutMs: 100 });
    const started = performance.now();
    const error = await client.machines.restart('psabc123').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceTimeoutError);
    expect((error as PaperspaceTimeoutError).timeoutMs).toBe(100);
    expect((error as Error).message).toBe(
      'Paperspace did not answer within 100 ms while trying to restart this machine. ' +
        'It may have been done anyway: check before repeating it.',
    );
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('retries a timed-out GET like any other transient failure', async () => {
    server = await startFakePaperspace(inSequence({ hang: true }, ok));
    const { client, sleeps } = testClient(server, { timeoutMs: 100 });
    await expect(client.machines.list()).resolves.toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(sleeps).toEqual([500]);
  });

  it('stops at once when the caller aborts, rejecting with the abort reason', async () => {
    server = await startFakePaperspace(() => ({ hang: true }));
    const { client } = testClient(server);
    const controller = new AbortController();
    const reason = new Error('user cancelled');
    const pending = client.machines.list({}, { signal: controller.signal });
    await waitFor(() => server?.requests.length === 1);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    server = await startFakePaperspace(() => ({ status: 204 }));
    const { client } = testClient(server);
    const reason = new Error('gone');
    await expect(client.machines.restart('psabc123', { signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    await expect(client.machines.list({}, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('reports every attempt to onResponse with its status and no secret', async () => {
    server = await startFakePaperspace(inSequence(serverError, ok));
    const events: ResponseEvent[] = [];
    const { client } = testClient(server, { onResponse: (event) => events.push(event) });
    await client.machines.list();
    expect(events.map(({ durationMs: _, ...rest }) => rest)).toEqual([
      { operation: 'machines.list', method: 'GET', status: 500, attempt: 1 },
      { operation: 'machines.list', method: 'GET', status: 200, attempt: 2 },
    ]);
    expect(events.every((event) => event.durationMs >= 0)).toBe(true);
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it("reports a connection failure to onResponse as status 'error'", async () => {
    server = await startFakePaperspace(() => ok);
    const events: ResponseEvent[] = [];
    const { client } = testClient(server, {
      baseUrl: await freePortUrl(),
      maxRetries: 0,
      onResponse: (e) => events.push(e),
    });
    await expect(client.machines.list()).rejects.toBeInstanceOf(PaperspaceConnectionError);
    expect(events.map((event) => event.status)).toEqual(['error']);
  });

  it('does not let a failing onResponse hook fail the call', async () => {
    server = await startFakePaperspace(() => ok);
    const { client } = testClient(server, {
      onResponse: () => {
        throw new Error('metrics down');
      },
    });
    await expect(client.machines.list()).resolves.toHaveLength(1);
  });

  it('rejects a success body that is not what the contract promises', async () => {
    server = await startFakePaperspace(() => ({ json: [{ id: 'ps1' }] }));
    const { client } = testClient(server);
    const error = await client.machines.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceUnexpectedResponseError);
    expect((error as Error).message).toContain('list machines with data the client does not understand');
    expect((error as Error).message).toContain('0.name');
  });

  it('warns that a change may have happened when its success answer cannot be read', async () => {
    server = await startFakePaperspace(() => ({ status: 201, json: { id: 'psnew' } }));
    const { client } = testClient(server);
    const error = await client.machines
      .create({
        region: 'East Coast (NY2)',
        machineType: 'C4',
        size: 50,
        billingType: 'hourly',
        machineName: 'cpu-1',
        templateId: 't1',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceUnexpectedResponseError);
    expect((error as Error).message).toMatch(
      /^Paperspace answered the request to create machine cpu-1 with data .* It may have been done anyway: check before repeating it\.$/,
    );
  });

  it('rejects an empty or non-JSON success body where data is expected', async () => {
    server = await startFakePaperspace(inSequence({ status: 200 }, { text: '<html>ok</html>' }));
    const { client } = testClient(server);
    await expect(client.machines.list()).rejects.toThrow(/with an empty body/);
    await expect(client.machines.list()).rejects.toThrow(/with a body that is not JSON/);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!condition()) throw new Error('condition never held');
}
