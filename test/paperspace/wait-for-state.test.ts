import { afterEach, describe, expect, it } from 'vitest';
import { PaperspaceAuthenticationError, PaperspaceServerError } from '../../src/paperspace/errors.js';
import type { MachineWithEvents } from '../../src/paperspace/schemas.js';
import {
  MachineGoneError,
  MachineOperationFailedError,
  WaitTimeoutError,
} from '../../src/paperspace/wait-errors.js';
import { findFailedEvent } from '../../src/paperspace/wait-for-state.js';
import {
  eventFixture,
  type FakePaperspace,
  inSequence,
  machineFixture,
  type Reply,
  startFakePaperspace,
  testClient,
} from './fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// testClient's fake clock starts at 2024-05-01T12:00:00Z; the wait begins then.
const beforeWait = '2024-05-01T11:59:58.000Z';
const duringWait = '2024-05-01T12:00:07.000Z';
const yesterday = '2024-04-30T12:00:00.000Z';

const shown = (state: string, events: Record<string, unknown>[] = []): Reply => ({
  json: machineFixture({ state, events }),
});

describe('waitForState', () => {
  it('polls every 5 s until the state is reached, reporting each state change', async () => {
    server = await startFakePaperspace(
      inSequence(shown('off'), shown('starting'), shown('starting'), shown('ready')),
    );
    const { client, sleeps } = testClient(server);
    const changes: string[] = [];
    const machine = await client.machines.waitForState('psabc123', 'ready', {
      timeoutMs: 60_000,
      onChange: (m, previous) => void changes.push(`${previous ?? '(first)'} -> ${m.state}`),
    });
    expect(machine.state).toBe('ready');
    expect(machine.events).toEqual([]);
    expect(changes).toEqual(['(first) -> off', 'off -> starting', 'starting -> ready']);
    expect(sleeps).toEqual([5000, 5000, 5000]);
    expect(server.requests.map((r) => `${r.path}?machineId=${r.query.machineId}`)).toEqual(
      Array(4).fill('/machines/getMachinePublic?machineId=psabc123'),
    );
  });

  it('returns at once, without sleeping, when the machine is already there', async () => {
    server = await startFakePaperspace(() => shown('off'));
    const { client, sleeps } = testClient(server);
    await expect(client.machines.waitForState('psabc123', 'off', { timeoutMs: 1000 })).resolves.toMatchObject(
      {
        state: 'off',
      },
    );
    expect(sleeps).toEqual([]);
  });

  it('uses the interval it is given', async () => {
    server = await startFakePaperspace(inSequence(shown('stopping'), shown('off')));
    const { client, sleeps } = testClient(server);
    await client.machines.waitForState('psabc123', 'off', { timeoutMs: 60_000, intervalMs: 250 });
    expect(sleeps).toEqual([250]);
  });

  it('gives up at the deadline with a WaitTimeoutError carrying the last machine seen', async () => {
    server = await startFakePaperspace(() => shown('starting'));
    const { client, sleeps } = testClient(server);
    const error = await client.machines
      .waitForState('psabc123', 'ready', { timeoutMs: 12_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const timeout = error as WaitTimeoutError;
    expect(timeout.machine?.state).toBe('starting');
    expect(timeout.targetState).toBe('ready');
    expect(timeout.message).toBe(
      'gpu-1 did not become ready within 12 s; it is still starting. Check it with /ps show, or wait again.',
    );
    // Polls at 0, 5, 10 and, after a shortened wait, at the deadline itself.
    expect(sleeps).toEqual([5000, 5000, 2000]);
    expect(server.requests).toHaveLength(4);
  });

  it('stops promptly when aborted during the wait between polls, sending nothing more', async () => {
    server = await startFakePaperspace(() => shown('starting'));
    // The real sleep, with an interval far longer than the test: only the abort can end it.
    const { client } = testClient(server, { sleep: undefined });
    const controller = new AbortController();
    const reason = new Error('watch cancelled');
    const started = performance.now();
    const pending = client.machines.waitForState('psabc123', 'ready', {
      timeoutMs: 600_000,
      intervalMs: 60_000,
      signal: controller.signal,
      onChange: () => {
        setTimeout(() => controller.abort(reason), 10);
      },
    });
    await expect(pending).rejects.toBe(reason);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it('stops promptly when aborted while a poll is in flight', async () => {
    server = await startFakePaperspace(() => ({ hang: true }));
    const { client } = testClient(server);
    const controller = new AbortController();
    const pending = client.machines.waitForState('psabc123', 'ready', {
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    for (let i = 0; i < 200 && server.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(1);
  });

  it('does not poll at all when the signal is already aborted', async () => {
    server = await startFakePaperspace(() => shown('ready'));
    const { client } = testClient(server);
    const reason = new Error('too late');
    await expect(
      client.machines.waitForState('psabc123', 'ready', {
        timeoutMs: 1000,
        signal: AbortSignal.abort(reason),
      }),
    ).rejects.toBe(reason);
    expect(server.requests).toHaveLength(0);
  });

  it('fails with the event message when the operation it waits for fails', async () => {
    const failedStart = eventFixture({
      name: 'start',
      state: 'error',
      errorMsg: 'Out of capacity in NY2',
      dtCreated: duringWait,
    });
    server = await startFakePaperspace(inSequence(shown('starting'), shown('off', [failedStart])));
    const { client } = testClient(server);
    const error = await client.machines
      .waitForState('psabc123', 'ready', { timeoutMs: 60_000 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MachineOperationFailedError);
    expect((error as MachineOperationFailedError).event.errorMsg).toBe('Out of capacity in NY2');
    expect((error as MachineOperationFailedError).machine.state).toBe('off');
    expect((error as Error).message).toBe(
      'Paperspace reports that the start of gpu-1 failed: Out of capacity in NY2. ' +
        'Check the machine in the Paperspace console before trying again.',
    );
  });

  it('counts the newest event as this operation even if it was created just before the wait', async () => {
    const failedJustBefore = eventFixture({ state: 'error', errorMsg: '', dtCreated: beforeWait });
    server = await startFakePaperspace(() => shown('off', [failedJustBefore]));
    const { client } = testClient(server);
    const error = await client.machines
      .waitForState('psabc123', 'ready', { timeoutMs: 60_000 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(MachineOperationFailedError);
    expect((error as Error).message).toContain('failed (event state "error")');
  });

  it('ignores a failure from an earlier operation', async () => {
    const current = eventFixture({ state: 'in progress', dtCreated: beforeWait, dtFinished: null });
    const oldFailure = eventFixture({ state: 'error', errorMsg: 'disk full', dtCreated: yesterday });
    server = await startFakePaperspace(
      inSequence(shown('starting', [oldFailure, current]), shown('ready', [current])),
    );
    const { client } = testClient(server);
    await expect(
      client.machines.waitForState('psabc123', 'ready', { timeoutMs: 60_000 }),
    ).resolves.toMatchObject({
      state: 'ready',
    });
  });

  it('reports a machine that disappears (404) as gone', async () => {
    server = await startFakePaperspace(
      inSequence(shown('stopping'), {
        status: 404,
        json: { error: { name: 'Error', status: 404, message: 'Not found' } },
      }),
    );
    const { client } = testClient(server);
    const error = await client.machines
      .waitForState('psabc123', 'off', { timeoutMs: 60_000 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(MachineGoneError);
    expect((error as MachineGoneError).machineId).toBe('psabc123');
    expect((error as Error).message).toContain('Machine "psabc123" no longer exists');
  });

  it('survives a 500 and a 429 by polling again, after the Retry-After when it is longer', async () => {
    server = await startFakePaperspace(
      inSequence(
        shown('starting'),
        { status: 500, text: 'oops' },
        { status: 429, headers: { 'retry-after': '30' } },
        shown('ready'),
      ),
    );
    const { client, sleeps } = testClient(server);
    const changes: string[] = [];
    await client.machines.waitForState('psabc123', 'ready', {
      timeoutMs: 120_000,
      onChange: (m) => void changes.push(m.state),
    });
    // One request per poll: the core's own quick retries are off while waiting.
    expect(server.requests).toHaveLength(4);
    expect(sleeps).toEqual([5000, 5000, 30_000]);
    expect(changes).toEqual(['starting', 'ready']);
  });

  it('keeps the last transient failure on the timeout error when Paperspace never answered', async () => {
    server = await startFakePaperspace(() => ({ status: 502, text: 'Bad Gateway' }));
    const { client } = testClient(server);
    const error = await client.machines
      .waitForState('psabc123', 'ready', { timeoutMs: 10_000 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as WaitTimeoutError).machine).toBeUndefined();
    expect((error as WaitTimeoutError).lastError).toBeInstanceOf(PaperspaceServerError);
    expect((error as Error).message).toContain(
      'psabc123 did not become ready within 10 s; Paperspace could not be asked',
    );
  });

  it('stops at once on a rejected API key instead of polling on', async () => {
    server = await startFakePaperspace(() => ({
      status: 401,
      json: { status: 401, message: 'Invalid API token' },
    }));
    const { client, sleeps } = testClient(server);
    await expect(
      client.machines.waitForState('psabc123', 'ready', { timeoutMs: 60_000 }),
    ).rejects.toBeInstanceOf(PaperspaceAuthenticationError);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('findFailedEvent', () => {
  const since = Date.parse('2024-05-01T12:00:00Z');
  const events = (...list: Record<string, unknown>[]) => list as unknown as MachineWithEvents['events'];

  it('picks the oldest failed event since the wait began, the cause of the others, in any order', () => {
    const older = eventFixture({ handle: 'a', state: 'error', dtCreated: '2024-05-01T12:00:05Z' });
    const newer = eventFixture({ handle: 'b', errorMsg: 'quota', dtCreated: '2024-05-01T12:00:09Z' });
    const done = eventFixture({ handle: 'c', dtCreated: '2024-05-01T12:00:10Z' });
    expect(findFailedEvent(events(done, newer, older), since)?.handle).toBe('a');
  });

  it('counts every event recorded in the instant of the newest, though it came before the wait', () => {
    // A create that failed, and the start queued behind it, cancelled: both recorded by one request.
    const start = eventFixture({ handle: 's', name: 'start', state: 'error', dtCreated: beforeWait });
    const create = eventFixture({ handle: 'c', name: 'create', state: 'error', dtCreated: beforeWait });
    expect(findFailedEvent(events(start, create), since)?.handle).toBe('c');
  });

  it('ignores failures older than the wait and than the newest event', () => {
    const old = eventFixture({ handle: 'o', state: 'error', dtCreated: yesterday });
    const start = eventFixture({ handle: 's', name: 'start', dtCreated: beforeWait });
    expect(findFailedEvent(events(start, old), since)).toBeUndefined();
  });

  it('finds nothing when every relevant event succeeded', () => {
    expect(findFailedEvent(events(eventFixture({ dtCreated: yesterday })), since)).toBeUndefined();
    expect(findFailedEvent(events(), since)).toBeUndefined();
  });
});
