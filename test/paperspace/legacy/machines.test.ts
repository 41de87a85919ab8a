import { afterEach, describe, expect, it } from 'vitest';
import type { PaperspaceClient } from '../../../src/paperspace/client.js';
import { RequestValidationError } from '../../../src/paperspace/errors.js';
import {
  eventFixture,
  type FakePaperspace,
  inSequence,
  machineFixture,
  type Reply,
  startFakePaperspace,
  testClient,
} from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientAnswering(handler: Parameters<typeof startFakePaperspace>[0]) {
  server = await startFakePaperspace(handler);
  return { server, ...testClient(server) };
}

const validCreate = {
  region: 'East Coast (NY2)',
  machineType: 'P4000',
  size: 50,
  billingType: 'hourly',
  machineName: 'gpu-1',
  templateId: 'tkni3aa4',
} as const;

describe('machines: request shapes', () => {
  it('creates a machine with a JSON POST of the parameters and returns it, 201 included', async () => {
    const created = machineFixture({
      state: 'provisioning',
      os: null,
      ram: null,
      region: null,
      publicIpAddress: null,
    });
    const { server, client } = await clientAnswering(() => ({ status: 201, json: created }));
    const machine = await client.machines.create({ ...validCreate, startOnCreate: false, scriptId: 'sc1' });
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/machines/createSingleMachinePublic');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ ...validCreate, startOnCreate: false, scriptId: 'sc1' });
    expect(machine.state).toBe('provisioning');
    expect(machine.userId).toBe('uabc');
  });

  it('sends a new user’s password exactly as given, spaces at either end included', async () => {
    const { server, client } = await clientAnswering(() => ({ json: machineFixture() }));
    const newUser = {
      email: 'new@example.com',
      password: '  spaced out ',
      firstName: 'New',
      lastName: 'User',
    };
    await client.machines.create({ ...validCreate, teamId: 'te1', ...newUser });
    expect(server.requests[0]?.body).toMatchObject({ password: '  spaced out ' });
  });

  it('refuses a blank new-user password before sending', async () => {
    const { server, client } = await clientAnswering(() => ({ json: machineFixture() }));
    const newUser = { email: 'new@example.com', password: '   ', firstName: 'New', lastName: 'User' };
    await expect(client.machines.create({ ...validCreate, teamId: 'te1', ...newUser })).rejects.toThrow(
      'Cannot create machine gpu-1: password must not be empty.',
    );
    expect(server.requests).toEqual([]);
  });

  it.each(['start', 'stop', 'restart'] as const)(
    '%ss a machine with a bodiless POST to its path',
    async (verb) => {
      const { server, client } = await clientAnswering(() => ({ status: 204 }));
      await client.machines[verb]('psabc123');
      expect(server.requests).toMatchObject([
        { method: 'POST', path: `/machines/psabc123/${verb}`, rawBody: '' },
      ]);
    },
  );

  it('encodes a machine id so it cannot change the path', async () => {
    const { server, client } = await clientAnswering(() => ({ status: 204 }));
    await client.machines.start('a/../b');
    expect(server.requests[0]?.path).toBe('/machines/a%2F..%2Fb/start');
  });

  it('destroys a machine, sending releasePublicIp in the JSON body', async () => {
    const { server, client } = await clientAnswering(() => ({ status: 204 }));
    await client.machines.destroy('psabc123', { releasePublicIp: true });
    await client.machines.destroy('psabc123');
    expect(server.requests).toMatchObject([
      { method: 'POST', path: '/machines/psabc123/destroyMachine', body: { releasePublicIp: true } },
      { method: 'POST', path: '/machines/psabc123/destroyMachine', body: {} },
    ]);
  });

  it('updates a machine with the snapshot frequency as a word, and null to turn it off', async () => {
    const { server, client } = await clientAnswering(() => ({ json: {} }));
    await client.machines.update('psabc123', {
      machineName: 'renamed',
      shutdownTimeoutInHours: 2,
      shutdownTimeoutForces: true,
      autoSnapshotFrequency: 'day',
      autoSnapshotSaveCount: 3,
      performAutoSnapshot: true,
      dynamicPublicIp: false,
      assignPublicIp: true,
    });
    await client.machines.update('psabc123', { autoSnapshotFrequency: null });
    expect(server.requests).toMatchObject([
      {
        method: 'POST',
        path: '/machines/psabc123/updateMachinePublic',
        body: {
          machineName: 'renamed',
          shutdownTimeoutInHours: 2,
          shutdownTimeoutForces: true,
          autoSnapshotFrequency: 'day',
          autoSnapshotSaveCount: 3,
          performAutoSnapshot: true,
          dynamicPublicIp: false,
          assignPublicIp: true,
        },
      },
      { body: { autoSnapshotFrequency: null } },
    ]);
  });

  it('lists machines with every filter in the query string, booleans and numbers as text', async () => {
    const { server, client } = await clientAnswering(() => ({ json: [machineFixture({ internalId: 77 })] }));
    const machines = await client.machines.list({
      machineId: 'psabc123',
      name: 'gpu-1',
      state: 'ready',
      region: 'East Coast (NY2)',
      agentType: 'LinuxHeadless',
      cpus: 8,
      shutdownTimeoutInHours: 1,
      performAutoSnapshot: false,
      updatesPending: true,
      limit: 50,
      skip: 100,
    });
    expect(machines[0]?.internalId).toBe(77);
    expect(server.requests[0]?.method).toBe('GET');
    expect(server.requests[0]?.path).toBe('/machines/getMachines');
    expect(server.requests[0]?.query).toEqual({
      machineId: 'psabc123',
      name: 'gpu-1',
      state: 'ready',
      region: 'East Coast (NY2)',
      agentType: 'LinuxHeadless',
      cpus: '8',
      shutdownTimeoutInHours: '1',
      performAutoSnapshot: 'false',
      updatesPending: 'true',
      limit: '50',
      skip: '100',
    });
  });

  it('shows a machine by machineId and keeps what the real API adds', async () => {
    const shown = machineFixture({
      agentType: 'WindowsDesktop',
      events: [
        eventFixture({ name: 'deactivate', state: 'in progress', dtFinished: null, errorMsg: null }),
        eventFixture({ name: 'create', state: 'new' }),
      ],
    });
    const { server, client } = await clientAnswering(() => ({ json: shown }));
    const machine = await client.machines.show('psabc123');
    expect(server.requests).toMatchObject([
      { method: 'GET', path: '/machines/getMachinePublic', query: { machineId: 'psabc123' } },
    ]);
    expect(machine.agentType).toBe('WindowsDesktop');
    expect(machine.teamId).toBe('tabc');
    expect(machine.events.map((event) => `${event.name}:${event.state}`)).toEqual([
      'deactivate:in progress',
      'create:new',
    ]);
  });

  it('grants and revokes access with a JSON body', async () => {
    const { server, client } = await clientAnswering(() => ({ status: 200, text: '' }));
    await client.machines.setAccess('psabc123', { userId: 'u2', enableAccess: true });
    await client.machines.setAccess('psabc123', { userId: 'u2', enableAccess: false });
    expect(server.requests).toMatchObject([
      {
        method: 'POST',
        path: '/machines/psabc123/setMachineAccess',
        body: { userId: 'u2', enableAccess: true },
      },
      { body: { userId: 'u2', enableAccess: false } },
    ]);
  });

  it('reads utilization for a month, with fractional seconds', async () => {
    const usage = {
      machineId: 'psabc123',
      utilization: {
        machineId: 'psabc123',
        secondsUsed: 5462.25,
        hourlyRate: '0.51',
        billingMonth: '2024-05',
      },
      storageUtilization: {
        machineId: 'psabc123',
        secondsUsed: 86400.5,
        monthlyRate: '5.00',
        billingMonth: '2024-05',
      },
    };
    const { server, client } = await clientAnswering(() => ({ json: usage }));
    const result = await client.machines.utilization('psabc123', '2024-05');
    expect(server.requests).toMatchObject([
      {
        method: 'GET',
        path: '/machines/getUtilization',
        query: { machineId: 'psabc123', billingMonth: '2024-05' },
      },
    ]);
    expect(result.utilization.secondsUsed).toBe(5462.25);
  });

  it('asks availability for a dedicated GPU type in a region', async () => {
    const { server, client } = await clientAnswering(() => ({ json: { available: false } }));
    await expect(client.machines.availability('West Coast (CA1)', 'GPU+')).resolves.toEqual({
      available: false,
    });
    expect(server.requests).toMatchObject([
      {
        method: 'GET',
        path: '/machines/getAvailability',
        query: { region: 'West Coast (CA1)', machineType: 'GPU+' },
      },
    ]);
  });
});

describe('machines: answers without a documented body', () => {
  const answers: [string, Reply][] = [
    ['204 No Content', { status: 204 }],
    ['an empty 200', { status: 200 }],
    ['some JSON', { json: { message: 'ok', machine: { id: 'psabc123' } } }],
    ['plain text', { text: 'OK' }],
  ];

  it.each(answers)('treats %s as success for every machine action', async (_kind, reply) => {
    const { server, client } = await clientAnswering(() => reply);
    await client.machines.start('ps1');
    await client.machines.stop('ps1');
    await client.machines.restart('ps1');
    await client.machines.destroy('ps1');
    await client.machines.update('ps1', { machineName: 'n' });
    await client.machines.setAccess('ps1', { userId: 'u', enableAccess: true });
    expect(server.requests).toHaveLength(6);
  });
});

describe('machines: validation before sending', () => {
  const windows = { id: 't1', name: 'Windows 10 (Server 2016) - Licensed', os: 'Windows 10 (Server 2016)' };
  const ubuntu = { id: 't2', name: 'tqalmii', os: 'Ubuntu 18.04.3 LTS; uname: 4.15.0-58-generic' };

  const cases: [string, (client: PaperspaceClient) => Promise<unknown>, string][] = [
    [
      'an unknown region',
      (c) => c.machines.create({ ...validCreate, region: 'Mars (MRS1)' as never }),
      'region',
    ],
    [
      'an unknown machine type',
      (c) => c.machines.create({ ...validCreate, machineType: 'P9000' as never }),
      'machineType',
    ],
    [
      'a billing type other than hourly',
      (c) => c.machines.create({ ...validCreate, billingType: 'monthly' as never }),
      'billingType',
    ],
    ['a size of 0', (c) => c.machines.create({ ...validCreate, size: 0 }), 'size'],
    ['a fractional size', (c) => c.machines.create({ ...validCreate, size: 50.5 }), 'size'],
    ['a size given as text', (c) => c.machines.create({ ...validCreate, size: '50' as never }), 'size'],
    [
      'a missing machine name',
      (c) => c.machines.create({ ...validCreate, machineName: undefined as never }),
      'machineName',
    ],
    ['an unknown parameter', (c) => c.machines.create({ ...validCreate, gpuCount: 2 } as never), 'gpuCount'],
    [
      'assignPublicIp with dynamicPublicIp',
      (c) => c.machines.create({ ...validCreate, assignPublicIp: true, dynamicPublicIp: true }),
      'assignPublicIp',
    ],
    [
      'userId with a new user e-mail',
      (c) => c.machines.create({ ...validCreate, userId: 'u1', email: 'new@example.com' }),
      'email',
    ],
    [
      'userId with a new user name',
      (c) => c.machines.create({ ...validCreate, userId: 'u1', firstName: 'Ada' }),
      'firstName',
    ],
    [
      'a partial new user',
      (c) => c.machines.create({ ...validCreate, email: 'new@example.com', password: 'pw' }),
      'firstName',
    ],
    [
      'a restore point without an initial snapshot',
      (c) =>
        c.machines.create({
          ...validCreate,
          markSnapshotAsRestorePoint: true,
          restorePointFrequency: 'shutdown',
        }),
      'takeInitialSnapshot',
    ],
    [
      'a restore point without a frequency',
      (c) =>
        c.machines.create({ ...validCreate, markSnapshotAsRestorePoint: true, takeInitialSnapshot: true }),
      'restorePointFrequency',
    ],
    [
      'a CPU type from a Windows template',
      (c) => c.machines.create({ ...validCreate, machineType: 'C5' }, { template: windows }),
      'machineType',
    ],
    [
      'a GRID type from an Ubuntu template',
      (c) => c.machines.create({ ...validCreate, machineType: 'Air' }, { template: ubuntu }),
      'machineType',
    ],
    ['an empty machine id', (c) => c.machines.start('  '), 'machineId'],
    [
      'a destroy flag that is not a boolean',
      (c) => c.machines.destroy('ps1', { releasePublicIp: 'yes' as never }),
      'releasePublicIp',
    ],
    ['an unknown update field', (c) => c.machines.update('ps1', { ram: '64' } as never), 'ram'],
    [
      'a snapshot frequency of "month"',
      (c) => c.machines.update('ps1', { autoSnapshotFrequency: 'month' as never }),
      'autoSnapshotFrequency',
    ],
    [
      'a snapshot frequency as a number',
      (c) => c.machines.update('ps1', { autoSnapshotFrequency: 24 as never }),
      'autoSnapshotFrequency',
    ],
    [
      'a negative shutdown timeout',
      (c) => c.machines.update('ps1', { shutdownTimeoutInHours: -1 }),
      'shutdownTimeoutInHours',
    ],
    ['an id filter instead of machineId', (c) => c.machines.list({ id: 'ps1' } as never), 'id'],
    ['a number filter given as text', (c) => c.machines.list({ cpus: '8' as never }), 'cpus'],
    [
      'a boolean filter given as text',
      (c) => c.machines.list({ updatesPending: 'yes' as never }),
      'updatesPending',
    ],
    ['an unknown state filter', (c) => c.machines.list({ state: 'running' as never }), 'state'],
    ['a page larger than 1000', (c) => c.machines.list({ limit: 1001 }), 'limit'],
    ['a negative skip', (c) => c.machines.list({ skip: -1 }), 'skip'],
    ['an unknown filter', (c) => c.machines.list({ colour: 'red' } as never), 'colour'],
    ['a bad filter for listAll', async (c) => c.machines.listAll({ cpus: 'x' as never }), 'cpus'],
    [
      'access without enableAccess',
      (c) => c.machines.setAccess('ps1', { userId: 'u1' } as never),
      'enableAccess',
    ],
    ['a machine id of ..', (c) => c.machines.stop('..'), 'machineId'],
    ['a machine id of .', (c) => c.machines.destroy('.'), 'machineId'],
    ['a billing month 13', (c) => c.machines.utilization('ps1', '2024-13'), 'billingMonth'],
    ['a billing month without its zero', (c) => c.machines.utilization('ps1', '2024-5'), 'billingMonth'],
    ['a billing month with a day', (c) => c.machines.utilization('ps1', '2024-05-01'), 'billingMonth'],
    [
      'availability of a CPU type',
      (c) => c.machines.availability('Europe (AMS1)', 'C4' as never),
      'machineType',
    ],
    [
      'availability of a GRID type',
      (c) => c.machines.availability('Europe (AMS1)', 'Air' as never),
      'machineType',
    ],
    ['availability in an unknown region', (c) => c.machines.availability('Moon' as never, 'V100'), 'region'],
    [
      'waiting for a transitional state',
      (c) => c.machines.waitForState('ps1', 'starting' as never, { timeoutMs: 1000 }),
      'state',
    ],
    [
      'waiting with no timeout',
      (c) => c.machines.waitForState('ps1', 'ready', { timeoutMs: 0 }),
      'timeoutMs',
    ],
  ];

  it.each(cases)('refuses %s, naming the field, without sending anything', async (_rule, call, field) => {
    const { server, client } = await clientAnswering(() => ({ json: machineFixture() }));
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.field)).toContain(field);
    expect((error as Error).message).toContain(field);
    expect(server.requests).toHaveLength(0);
  });

  it('says what is wrong in a sentence', async () => {
    const { client } = await clientAnswering(() => ({ json: machineFixture() }));
    const error = await client.machines
      .create({ ...validCreate, machineType: 'C5' }, { template: windows })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      'Cannot create machine gpu-1: machineType cannot be C5: Windows templates ' +
        '(Windows 10 (Server 2016) - Licensed) cannot create CPU-only types C1 to C10.',
    );
  });

  it('lets a Windows template create a GPU type and an Ubuntu template a CPU type', async () => {
    const { server, client } = await clientAnswering(() => ({ json: machineFixture() }));
    await client.machines.create({ ...validCreate, machineType: 'P5000' }, { template: windows });
    await client.machines.create({ ...validCreate, machineType: 'C3' }, { template: ubuntu });
    expect(server.requests).toHaveLength(2);
  });
});

describe('machines: listAll', () => {
  const total = 2500;
  const everyMachine = Array.from({ length: total }, (_, i) =>
    machineFixture({ id: `ps${i}`, name: `m-${i}` }),
  );

  it('yields every machine, fetching pages of 1000 until a short page', async () => {
    const { server, client } = await clientAnswering((request) => {
      const skip = Number(request.query.skip);
      const limit = Number(request.query.limit);
      return { json: everyMachine.slice(skip, skip + limit) };
    });
    const ids: string[] = [];
    for await (const machine of client.machines.listAll({ region: 'East Coast (NY2)' })) ids.push(machine.id);
    expect(ids).toEqual(everyMachine.map((machine) => machine.id));
    expect(server.requests.map((request) => request.query)).toEqual([
      { region: 'East Coast (NY2)', limit: '1000', skip: '0' },
      { region: 'East Coast (NY2)', limit: '1000', skip: '1000' },
      { region: 'East Coast (NY2)', limit: '1000', skip: '2000' },
    ]);
  });

  it('stops when an exact multiple of 1000 is followed by an empty page', async () => {
    const { server, client } = await clientAnswering(
      inSequence({ json: everyMachine.slice(0, 1000) }, { json: [] }),
    );
    let count = 0;
    for await (const _machine of client.machines.listAll()) count++;
    expect(count).toBe(1000);
    expect(server.requests).toHaveLength(2);
  });

  it('stops instead of looping forever when the server ignores skip', async () => {
    const { server, client } = await clientAnswering(() => ({ json: everyMachine.slice(0, 1000) }));
    let count = 0;
    for await (const _machine of client.machines.listAll()) count++;
    expect(count).toBe(1000);
    expect(server.requests).toHaveLength(2);
  });
});

describe('machine ids in paths', () => {
  it('encodes an id, so it stays one path segment', async () => {
    const { server, client } = await clientAnswering(() => ({ status: 204 }));
    await client.machines.stop('ps1/../x?y').catch(() => undefined);
    expect(server.requests[0]?.path).toBe('/machines/ps1%2F..%2Fx%3Fy/stop');
  });
});
