// The v1 dialect over real HTTP to a scripted server: what it sends (Bearer, v1 paths, PATCH {}),
// how it follows cursors, and how it reads v1's answers (numbers, events, {code,message} errors).
import { afterEach, describe, expect, it } from 'vitest';
import {
  PaperspaceBadRequestError,
  PaperspaceNotFoundError,
  PaperspaceServerError,
} from '../../src/paperspace/errors.js';
import { MachineOperationFailedError } from '../../src/paperspace/wait-errors.js';
import {
  API_KEY,
  type FakePaperspace,
  type Handler,
  startFakePaperspace,
  testClient,
} from './fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function v1Machine(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'psv1abc',
    name: 'gpu-1',
    state: 'off',
    machineType: 'P4000',
    agentType: 'LinuxHeadless',
    os: 'Ubuntu 22.04',
    cpus: 8,
    ram: 32212254720,
    accelerators: [{ name: 'Quadro P4000', count: 1, memory: 8192 }],
    storageTotal: 53687091200,
    storageUsed: 110080,
    usageRate: 0.51,
    storageRate: 5,
    region: 'ny2',
    networkId: null,
    privateIp: '10.0.0.2',
    publicIp: null,
    publicIpType: 'dynamic',
    autoShutdownEnabled: true,
    autoShutdownTimeout: 2,
    autoShutdownForce: false,
    autoSnapshotEnabled: false,
    autoSnapshotFrequency: null,
    autoSnapshotSaveCount: null,
    restorePointEnabled: false,
    restorePointFrequency: null,
    restorePointSnapshotId: null,
    updatesPending: false,
    reservation: null,
    dtCreated: '2024-05-01T10:00:00.000Z',
    dtModified: '2024-05-01T10:00:00.000Z',
    dtDeleted: null,
    ...overrides,
  };
}

function event(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'ev-1',
    machineId: 'psv1abc',
    name: 'start',
    state: 'done',
    error: null,
    dtCreated: '2024-05-01T11:00:00.000Z',
    dtStarted: '2024-05-01T11:00:00.000Z',
    dtFinished: '2024-05-01T11:00:30.000Z',
    ...overrides,
  };
}

const session = {
  user: {
    id: 'u-ada',
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    teamMemberships: [{ isAdmin: true, isOwner: false, team: { id: 't-1' } }],
  },
  team: { id: 't-1', namespace: 'lab' },
};

async function v1Client(handler: Handler) {
  server = await startFakePaperspace(handler);
  return testClient(server, { baseUrl: `${server.url}/v1`, accessToken: undefined });
}

describe('the v1 dialect', () => {
  it('sends the key as Bearer, never as X-Api-Key, and only to v1 paths', async () => {
    const { client } = await v1Client(() => ({ json: { items: [v1Machine()], hasMore: false } }));
    await client.machines.list();
    const [request] = server?.requests ?? [];
    expect(request?.path).toBe('/v1/machines');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
  });

  it('follows cursors past several pages, even short ones, and filters state itself', async () => {
    const pages: Record<string, unknown> = {
      '': { items: [v1Machine({ id: 'm1', state: 'ready' })], hasMore: true, nextPage: 'c2' },
      c2: {
        items: [v1Machine({ id: 'm2' }), v1Machine({ id: 'm3', state: 'ready' })],
        hasMore: true,
        nextPage: 'c3',
      },
      c3: { items: [v1Machine({ id: 'm4', state: 'ready' })], hasMore: false },
    };
    const { client } = await v1Client((request) => ({ json: pages[request.query.after ?? ''] }));
    const ready = await client.machines.list({ state: 'ready' });
    expect(ready.map((machine) => machine.id)).toEqual(['m1', 'm3', 'm4']);
    expect(server?.requests.map((request) => request.query.after ?? '')).toEqual(['', 'c2', 'c3']);
    expect(server?.requests.every((request) => request.query.state === undefined)).toBe(true);
  });

  it("maps v1's numbers into the machine the cards show", async () => {
    const { client } = await v1Client(() => ({ json: { items: [v1Machine()], hasMore: false } }));
    const [machine] = await client.machines.list();
    expect(machine).toMatchObject({
      ram: '32212254720',
      gpu: 'Quadro P4000',
      storageTotal: '53687091200',
      region: 'East Coast (NY2)',
      dynamicPublicIp: true,
      shutdownTimeoutInHours: 2,
      privateIpAddress: '10.0.0.2',
      usageRate: '$0.51 / h',
    });
  });

  it('starts with PATCH {} and answers "already starting" as the no-op the contract makes it', async () => {
    const { client } = await v1Client(() => ({
      status: 400,
      json: { code: 'BAD_REQUEST', message: 'Machine is currently starting' },
    }));
    await expect(client.machines.start('psv1abc')).resolves.toEqual({ eventId: null });
    expect(server?.requests[0]).toMatchObject({
      method: 'PATCH',
      path: '/v1/machines/psv1abc/start',
      body: {},
    });
  });

  it('names the problem from a v1 error body, issues included', async () => {
    const { client } = await v1Client(() => ({
      status: 400,
      json: { code: 'BAD_REQUEST', message: 'Invalid input', issues: [{ message: 'name is too long' }] },
    }));
    const failure = await client.machines.restart('psv1abc').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PaperspaceBadRequestError);
    expect((failure as Error).message).toContain('Invalid input; name is too long');
  });

  it('reads 404 as the machine being unknown', async () => {
    const { client } = await v1Client(() => ({
      status: 404,
      json: { code: 'NOT_FOUND', message: 'Not found' },
    }));
    await expect(client.machines.show('nope')).rejects.toBeInstanceOf(PaperspaceNotFoundError);
    await expect(client.machines.list({ machineId: 'nope' })).resolves.toEqual([]);
  });

  it('learns of a failed start from the error of its event', async () => {
    const { client } = await v1Client((request) =>
      request.path === '/v1/machine-events'
        ? {
            json: {
              items: [
                event({ state: 'error', error: 'No capacity in ny2', dtCreated: '2024-05-01T12:00:00.000Z' }),
              ],
              hasMore: false,
            },
          }
        : { json: v1Machine({ state: 'off' }) },
    );
    const failure = await client.machines
      .waitForState('psv1abc', 'ready', { timeoutMs: 60_000 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MachineOperationFailedError);
    expect((failure as Error).message).toContain('No capacity in ny2');
  });

  it('never retries a create, even after a 500', async () => {
    const { client } = await v1Client(() => ({
      status: 500,
      json: { code: 'INTERNAL_SERVER_ERROR', message: 'boom' },
    }));
    await expect(
      client.machines.create({
        region: 'East Coast (NY2)',
        machineType: 'P4000',
        size: 50,
        machineName: 'gpu-2',
        templateId: 't123',
      }),
    ).rejects.toBeInstanceOf(PaperspaceServerError);
    expect(server?.requests).toHaveLength(1);
    expect(server?.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/machines',
      body: { name: 'gpu-2', region: 'ny2', diskSize: 50, machineType: 'P4000', templateId: 't123' },
    });
  });

  it('retries a list after 429 once Retry-After has passed', async () => {
    let calls = 0;
    const { client, sleeps } = await v1Client(() =>
      calls++ === 0
        ? {
            status: 429,
            headers: { 'retry-after': '7' },
            json: { code: 'TOO_MANY_REQUESTS', message: 'Slow down' },
          }
        : { json: { items: [], hasMore: false } },
    );
    await expect(client.machines.list()).resolves.toEqual([]);
    expect(sleeps).toEqual([7000]);
  });

  it('says who a key belongs to from /auth/session', async () => {
    const { client } = await v1Client(() => ({ json: session }));
    await expect(client.account.whoAmI()).resolves.toEqual({
      userId: 'u-ada',
      email: 'ada@example.com',
      teamId: 't-1',
      isAdmin: true,
    });
  });

  it("lists the team's users from /teams/{teamId}/users", async () => {
    const { client } = await v1Client((request) =>
      request.path === '/v1/auth/session'
        ? { json: session }
        : {
            json: {
              items: [
                {
                  isAdmin: false,
                  isOwner: false,
                  user: { id: 'u-bob', email: 'bob@example.com', firstName: 'Bob', lastName: null },
                },
              ],
              hasMore: false,
            },
          },
    );
    const users = await client.users.list();
    expect(users).toMatchObject([{ id: 'u-bob', email: 'bob@example.com', firstname: 'Bob', teamId: 't-1' }]);
    expect(server?.requests.map((request) => request.path)).toEqual([
      '/v1/auth/session',
      '/v1/teams/t-1/users',
    ]);
  });

  it('estimates usage from start/stop events times usageRate, plus storageRate', async () => {
    const { client, clock } = await v1Client((request) =>
      request.path === '/v1/machine-events'
        ? {
            json: {
              items: [
                event({ name: 'start', dtFinished: '2024-05-01T08:00:00.000Z' }),
                event({ name: 'stop', dtFinished: '2024-05-01T10:30:00.000Z' }),
              ],
              hasMore: false,
            },
          }
        : { json: v1Machine({ state: 'off', dtCreated: '2024-05-01T07:00:00.000Z' }) },
    );
    clock.now = Date.parse('2024-05-02T00:00:00Z');
    const usage = await client.machines.utilization('psv1abc', '2024-05');
    expect(usage.utilization).toMatchObject({ secondsUsed: 9000, hourlyRate: '0.51' });
    expect(usage.storageUtilization.monthlyRate).toBe('5');
    // Storage is billed for the 17 hours the disk has existed, running or not.
    expect(usage.storageUtilization.secondsUsed).toBe(17 * 3600);
    expect(client.capabilities.utilization).toBe('estimated');
  });

  it('never estimates time before the machine was created', async () => {
    // A machine running now with no start event left (an old history): counted from its creation, not
    // from the first of the month.
    const { client, clock } = await v1Client((request) =>
      request.path === '/v1/machine-events'
        ? { json: { items: [], hasMore: false } }
        : { json: v1Machine({ state: 'ready', dtCreated: '2024-05-20T06:00:00.000Z' }) },
    );
    clock.now = Date.parse('2024-05-20T09:00:00Z');
    const usage = await client.machines.utilization('psv1abc', '2024-05');
    expect(usage.utilization.secondsUsed).toBe(3 * 3600);
    expect(usage.storageUtilization.secondsUsed).toBe(3 * 3600);
    const april = await client.machines.utilization('psv1abc', '2024-04');
    expect(april.utilization.secondsUsed).toBe(0);
    expect(april.storageUtilization.secondsUsed).toBe(0);
  });

  it('says plainly that a script text cannot be read back', async () => {
    const { client } = await v1Client(() => ({ json: {} }));
    await expect(client.scripts.text('s1')).rejects.toThrow(/does not give the text of a script back/);
    expect(server?.requests).toHaveLength(0);
  });
});
