// Retries under faults the emulator injects: what is safe to repeat (reads, start, stop, GraphQL
// queries) is retried with backoff or Retry-After; what is not (create, restart, destroy and every
// other change) is sent exactly once and the failure surfaces.
import { describe, expect, it } from 'vitest';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import { PaperspaceRateLimitError, PaperspaceServerError } from '../../src/paperspace/errors.js';
import { seededRandom } from '../../tools/emulator/index.js';
import { type ContractWorld, rejectionOf, startContractWorld } from './harness.js';

/** The emulator's answers to requests for `path`, in order. */
const statusesOf = (world: ContractWorld, path: string) =>
  world.state
    .requests()
    .filter((entry) => entry.path === path)
    .map((entry) => entry.status);

describe('safe operations are retried', () => {
  it('succeeds on the third attempt after two 500s, backing off 500 then 1000 ms', async () => {
    const world = await startContractWorld();
    world.state.failNextRequests({ count: 2, status: 500, path: '/machines/getMachines' });
    const machines = await world.ada.machines.list();
    expect(machines).toHaveLength(3);
    expect(statusesOf(world, '/machines/getMachines')).toEqual([500, 500, 200]);
    expect(world.sleeps).toEqual([500, 1000]);
  });

  it('gives up after maxRetries with the server error, which says to try again later', async () => {
    const world = await startContractWorld();
    world.state.failNextRequests({ count: 4, status: 502, message: 'Bad gateway', path: '/users/getUsers' });
    const error = await rejectionOf(world.ada.users.list());
    expect(error).toBeInstanceOf(PaperspaceServerError);
    expect(error.message).toBe(
      'Paperspace had an internal problem while trying to list users: Bad gateway. Try again in a minute.',
    );
    expect(statusesOf(world, '/users/getUsers')).toEqual([502, 502, 502, 502]);
    expect(world.sleeps).toEqual([500, 1000, 2000]);
  });

  it('waits out the Retry-After of a 429 from the rate limit, then succeeds', async () => {
    const world = await startContractWorld({ rateLimit: 1 });
    await world.ada.machines.list();
    world.clock.advance(400);
    const machines = await world.ada.machines.list();
    expect(machines).toHaveLength(3);
    expect(statusesOf(world, '/machines/getMachines')).toEqual([200, 429, 200]);
    // Retry-After: 1 (seconds), honoured exactly instead of the 500 ms backoff.
    expect(world.sleeps).toEqual([1000]);
  });

  it('reports a 429 that outlasts the retries with PaperspaceRateLimitError saying when to come back', async () => {
    const world = await startContractWorld({ rateLimit: 1 });
    const impatient = world.client('ada', { maxRetries: 0 });
    await impatient.machines.list();
    const error = await rejectionOf(impatient.machines.list());
    expect(error).toBeInstanceOf(PaperspaceRateLimitError);
    expect((error as PaperspaceRateLimitError).retryAfterMs).toBe(1000);
    expect(error.message).toBe(
      'Paperspace is limiting requests and did not list machines. Try again in 1 s.',
    );
  });

  const SAFE: Array<[string, string, (client: PaperspaceClient) => Promise<unknown>]> = [
    ['start', '/machines/psada003/start', (client) => client.machines.start('psada003')],
    ['stop', '/machines/psada001/stop', (client) => client.machines.stop('psada001')],
    ['show', '/machines/getMachinePublic', (client) => client.machines.show('psada001')],
    [
      'utilization',
      '/machines/getUtilization',
      (client) => client.machines.utilization('psada001', '2024-05'),
    ],
    [
      'availability',
      '/machines/getAvailability',
      (client) => client.machines.availability('Europe (AMS1)', 'P4000'),
    ],
    ['scripts.list', '/scripts/getScripts', (client) => client.scripts.list()],
    ['scripts.show', '/scripts/getScript', (client) => client.scripts.show('scada001')],
    ['scripts.text', '/scripts/getScriptText', (client) => client.scripts.text('scada001')],
    ['templates.list', '/templates/getTemplates', (client) => client.templates.list()],
    ['networks.list', '/networks/getNetworks', (client) => client.networks.list()],
  ];

  it.each(SAFE)('retries %s after a 503 and succeeds', async (_name, path, call) => {
    const world = await startContractWorld();
    world.state.failNextRequests({ count: 1, status: 503, path });
    await call(world.ada);
    const [failed, retried, ...more] = statusesOf(world, path);
    expect(failed).toBe(503);
    expect(retried).toBeGreaterThanOrEqual(200);
    expect(retried).toBeLessThan(300);
    expect(more).toEqual([]);
    expect(world.sleeps).toEqual([500]);
  });

  it('starts the machine once although the first start answered 503', async () => {
    const world = await startContractWorld();
    world.state.failNextRequests({ count: 1, status: 503, path: '/machines/psada003/start' });
    await world.ada.machines.start('psada003');
    const machine = await world.ada.machines.show('psada003');
    expect(machine.state).toBe('starting');
    expect(machine.events.filter((event) => event.name === 'start')).toHaveLength(1);
  });

  it('retries the shared-drive list, a GraphQL query, after a 500', async () => {
    const world = await startContractWorld();
    world.state.failNextRequests({ count: 1, status: 500, path: '/graphql' });
    expect((await world.maya.sharedDrives.list()).map((drive) => drive.name)).toEqual(['datasets']);
    expect(statusesOf(world, '/graphql')).toEqual([500, 200]);
  });

  it('still lists every time when a fifth of all requests fail at random', async () => {
    const world = await startContractWorld({ failRate: 0.2, random: seededRandom(42) });
    for (let call = 0; call < 30; call += 1) expect(await world.ada.machines.list()).toHaveLength(3);
    const statuses = statusesOf(world, '/machines/getMachines');
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 500).length).toBeGreaterThan(0);
  });
});

type DemoCall = (world: ContractWorld) => Promise<unknown>;

const createOnlyOnce: DemoCall = (world) =>
  world.ada.machines.create({
    region: 'East Coast (NY2)',
    machineType: 'C4',
    size: 50,
    billingType: 'hourly',
    machineName: 'only-once',
    templateId: 't04azgph',
  });

describe('changes are never retried', () => {
  const UNSAFE: Array<[string, string, DemoCall]> = [
    ['create', '/machines/createSingleMachinePublic', createOnlyOnce],
    ['restart', '/machines/psada001/restart', (world) => world.ada.machines.restart('psada001')],
    ['destroy', '/machines/psada001/destroyMachine', (world) => world.ada.machines.destroy('psada001')],
    [
      'update',
      '/machines/psada001/updateMachinePublic',
      (world) => world.ada.machines.update('psada001', { machineName: 'renamed' }),
    ],
    [
      'setAccess',
      '/machines/psada001/setMachineAccess',
      (world) => world.ada.machines.setAccess('psada001', { userId: 'u1sam', enableAccess: true }),
    ],
    [
      'scripts.create',
      '/scripts/createScript',
      (world) => world.ada.scripts.create({ scriptName: 'once', scriptText: 'echo once' }),
    ],
    ['scripts.destroy', '/scripts/scada001/destroy', (world) => world.ada.scripts.destroy('scada001')],
    [
      'delegations.create',
      '/resourceDelegations/create',
      (world) => world.ada.delegations.create({ machineIds: ['psada001'] }),
    ],
    [
      'sharedDrives.create',
      '/graphql',
      (world) =>
        world.maya.sharedDrives.create({
          name: 'once',
          sizeGiB: 10,
          region: 'West Coast (CA1)',
          networkId: 'norbca1',
        }),
    ],
    ['sharedDrives.delete', '/graphql', (world) => world.maya.sharedDrives.delete('sdorb001')],
  ];

  it.each(UNSAFE)('sends %s once after a 500 and surfaces the failure', async (_name, path, call) => {
    const world = await startContractWorld();
    const machinesBefore = world.state.machines();
    const scriptsBefore = world.state.scripts();
    world.state.failNextRequests({ count: 1, status: 500, path });

    const error = await rejectionOf(call(world));

    expect(error).toBeInstanceOf(PaperspaceServerError);
    expect(error.message).toMatch(/^Paperspace had an internal problem while trying to /);
    expect(statusesOf(world, path)).toEqual([500]);
    expect(world.sleeps).toEqual([]);
    expect(world.state.machines()).toEqual(machinesBefore);
    expect(world.state.scripts()).toEqual(scriptsBefore);
  });

  it('sends create exactly once, with the next attempt left to the person', async () => {
    const world = await startContractWorld();
    world.state.failNextRequests({ count: 1, status: 500, path: '/machines/createSingleMachinePublic' });
    const error = await rejectionOf(createOnlyOnce(world));
    expect(error.message).toBe(
      'Paperspace had an internal problem while trying to create machine only-once: ' +
        'Injected failure with status 500. It may have been done anyway: check before repeating it. ' +
        'Try again in a minute if not.',
    );
    expect(world.state.requests().filter((entry) => entry.method === 'POST')).toHaveLength(1);
    expect(world.state.machineByName('only-once')).toBeUndefined();
  });
});
