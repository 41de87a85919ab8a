// Lists through the real client against the real emulator: paging past 1000 machines and every
// equality filter of the contract, strings, numbers and booleans alike.
import { describe, expect, it } from 'vitest';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import type { MachineListFilters } from '../../src/paperspace/request-params/machine-params.js';
import type { Machine } from '../../src/paperspace/schemas.js';
import { DEMO_SEED } from '../../tools/emulator/index.js';
import { startContractWorld, TRANSITION_MS } from './harness.js';

describe('listing every machine', () => {
  it('yields all 2,503 of an account’s machines exactly once, asking for pages at skip 0, 1000 and 2000', async () => {
    const world = await startContractWorld();
    const added = world.state.addMachines(2500, { owner: 'u1ada', namePrefix: 'fleet' });
    const mark = world.mark();

    const seen: string[] = [];
    for await (const machine of world.ada.machines.listAll()) seen.push(machine.id);

    expect(seen).toHaveLength(2503);
    expect(new Set(seen).size).toBe(2503);
    expect(seen).toEqual(expect.arrayContaining([...added, 'psada001', 'psada002', 'psada003']));
    const pages = world.requestsSince(mark).map((entry) => new URLSearchParams(entry.query));
    expect(pages.map((query) => [query.get('limit'), query.get('skip')])).toEqual([
      ['1000', '0'],
      ['1000', '1000'],
      ['1000', '2000'],
    ]);
  });

  it('pages through a filtered list, keeping the filter on every page', async () => {
    const world = await startContractWorld();
    world.state.addMachines(1200, { owner: 'u1ada', state: 'ready', namePrefix: 'up' });
    world.state.addMachines(300, { owner: 'u1ada', state: 'off', namePrefix: 'down' });
    const mark = world.mark();
    const ready: Machine[] = [];
    for await (const machine of world.ada.machines.listAll({ state: 'ready' })) ready.push(machine);
    // The seed's own ready workstation plus the 1200 added ones.
    expect(ready).toHaveLength(1201);
    expect(ready.every((machine) => machine.state === 'ready')).toBe(true);
    expect(world.requestsSince(mark).every((entry) => entry.query.includes('state=ready'))).toBe(true);
  });

  it('shows the caller only their account’s machines', async () => {
    const world = await startContractWorld();
    const ids = (machines: Machine[]) => machines.map((machine) => machine.id).sort();
    expect(ids(await world.ada.machines.list())).toEqual(['psada001', 'psada002', 'psada003']);
    expect(ids(await world.sam.machines.list())).toEqual(ids(await world.maya.machines.list()));
    expect(ids(await world.sam.machines.list())).toEqual([
      'psorb001',
      'psorb002',
      'psorb003',
      'psorb004',
      'psorb005',
    ]);
  });
});

/** The contract's getMachines filters, by the kind of value they take. */
const STRING_FILTERS = [
  'machineId',
  'name',
  'os',
  'ram',
  'gpu',
  'storageTotal',
  'storageUsed',
  'usageRate',
  'autoSnapshotFrequency',
  'agentType',
  'dtCreated',
  'state',
  'networkId',
  'privateIpAddress',
  'publicIpAddress',
  'region',
  'userId',
  'teamId',
  'scriptId',
  'dtLastRun',
] as const;
const NUMBER_FILTERS = ['cpus', 'shutdownTimeoutInHours', 'autoSnapshotSaveCount'] as const;
const BOOLEAN_FILTERS = ['performAutoSnapshot', 'updatesPending'] as const;

/** The value a filter matches on: `machineId` is the machine's `id`, every other one its own field. */
const fieldOf = (machine: Machine, filter: string): unknown =>
  filter === 'machineId' ? machine.id : machine[filter as keyof Machine];

describe('machine list filters', () => {
  it.each([...STRING_FILTERS, ...NUMBER_FILTERS, ...BOOLEAN_FILTERS])(
    'filters on %s: every machine listed has the value, and the machine it came from is listed',
    async (filter) => {
      const world = await startContractWorld();
      // Gives the team's machines values for the fields the seed leaves null or default.
      await world.maya.machines.update('psorb002', {
        autoSnapshotFrequency: 'week',
        autoSnapshotSaveCount: 5,
        performAutoSnapshot: true,
        shutdownTimeoutInHours: 8,
      });
      // A boot of a machine with a startup script sets its dtLastRun.
      await world.maya.machines.restart('psorb001');
      world.clock.advance(2 * TRANSITION_MS);
      const all = await world.maya.machines.list();
      const example = all.find((machine) => fieldOf(machine, filter) !== null);
      if (!example) throw new Error(`No machine of the team has a value for ${filter}`);
      const value = fieldOf(example, filter);

      const listed = await world.maya.machines.list({ [filter]: value } as MachineListFilters);

      expect(listed.map((machine) => machine.id)).toContain(example.id);
      expect(listed.every((machine) => fieldOf(machine, filter) === value)).toBe(true);
      const expected = all
        .filter((machine) => fieldOf(machine, filter) === value)
        .map((machine) => machine.id);
      expect(listed.map((machine) => machine.id).sort()).toEqual(expected.sort());
    },
  );

  it('matches numbers as numbers: cpus 8 lists the eight-core machines and no others', async () => {
    const world = await startContractWorld();
    const eightCores = await world.ada.machines.list({ cpus: 8 });
    expect(eightCores.map((machine) => machine.id).sort()).toEqual(['psada001', 'psada003']);
    expect(await world.ada.machines.list({ cpus: 3 })).toEqual([]);
  });

  it('matches booleans both ways: performAutoSnapshot true and false split the machines', async () => {
    const world = await startContractWorld();
    await world.ada.machines.update('psada002', { performAutoSnapshot: true });
    const on = await world.ada.machines.list({ performAutoSnapshot: true });
    const off = await world.ada.machines.list({ performAutoSnapshot: false });
    expect(on.map((machine) => machine.id)).toEqual(['psada002']);
    expect(off.map((machine) => machine.id).sort()).toEqual(['psada001', 'psada003']);
  });

  it('combines filters: all must match', async () => {
    const world = await startContractWorld();
    const listed = await world.maya.machines.list({ region: 'Europe (AMS1)', userId: 'u1sam' });
    expect(listed.map((machine) => machine.name)).toEqual(['sam-dev']);
  });
});

describe('directory lists', () => {
  it('lists stock templates for everyone and the team’s own for its members, filtered by any field', async () => {
    const world = await startContractWorld();
    const ada = await world.ada.templates.list();
    const maya = await world.maya.templates.list();
    expect(ada.map((template) => template.id)).not.toContain('tobitml1');
    expect(maya.map((template) => template.id)).toContain('tobitml1');
    expect((await world.maya.templates.list({ os: 'Windows Server 2019' })).map((t) => t.id)).toEqual([
      'tl2wrfyq',
    ]);
    expect((await world.maya.templates.list({ teamId: 'te1orbit' })).map((t) => t.name)).toEqual([
      'te1orbit/tobitml1',
    ]);
    expect(await world.maya.templates.list({ label: 'No such template' })).toEqual([]);
  });

  it('lists the users of the caller’s team, filtered by e-mail or name', async () => {
    const world = await startContractWorld();
    const team = await world.sam.users.list();
    expect(team.map((user) => user.id).sort()).toEqual(['u1maya', 'u1sam']);
    expect(await world.sam.users.list({ email: 'maya.chen@orbital.example' })).toEqual([
      expect.objectContaining({ id: 'u1maya', firstname: 'Maya', lastname: 'Chen', teamId: 'te1orbit' }),
    ]);
    expect((await world.sam.users.list({ firstname: 'Sam' })).map((user) => user.id)).toEqual(['u1sam']);
    expect((await world.ada.users.list()).map((user) => user.id)).toEqual(['u1ada']);
  });

  it('lists the account’s networks, filtered by region', async () => {
    const world = await startContractWorld();
    expect((await world.maya.networks.list()).map((network) => network.id).sort()).toEqual([
      'norbams',
      'norbca1',
      'norbny2',
    ]);
    expect(await world.maya.networks.list({ region: 'East Coast (NY2)' })).toEqual([
      expect.objectContaining({
        id: 'norbny2',
        name: 'Orbital East',
        network: '10.66.2.0',
        netmask: '255.255.255.0',
        teamId: 'te1orbit',
      }),
    ]);
    expect((await world.ada.networks.list({ name: 'Ada West' })).map((network) => network.id)).toEqual([
      'nab1ca1',
    ]);
  });
});

/** A list operation of the client, seen as "list with these filters, answer records". */
type Lister = (
  client: PaperspaceClient,
  filters: Record<string, unknown>,
) => Promise<Array<Record<string, unknown>>>;

const DIRECTORY_FILTERS: Array<[string, Lister, readonly string[]]> = [
  [
    'templates',
    (client, filters) => client.templates.list(filters),
    ['id', 'name', 'label', 'os', 'dtCreated', 'teamId', 'userId', 'region'],
  ],
  [
    'users',
    (client, filters) => client.users.list(filters),
    ['id', 'email', 'firstname', 'lastname', 'dtCreated', 'teamId'],
  ],
  [
    'networks',
    (client, filters) => client.networks.list(filters),
    ['id', 'name', 'region', 'dtCreated', 'network', 'netmask', 'teamId'],
  ],
  [
    'scripts',
    (client, filters) => client.scripts.list(filters),
    ['id', 'ownerType', 'ownerId', 'name', 'description', 'dtCreated', 'isEnabled', 'runOnce'],
  ],
];

/** The demo world plus a template of Ada's own, limited to one region, so every template filter has a value. */
const SEED_WITH_OWN_TEMPLATE = {
  ...DEMO_SEED,
  templates: [
    ...(DEMO_SEED.templates ?? []),
    {
      id: 'tadaown1',
      name: 'u1ada/tadaown1',
      label: 'Ada render image',
      os: 'Ubuntu 22.04',
      account: 'u1ada',
      region: 'Europe (AMS1)',
      madeFrom: { machine: 'psada003', region: 'Europe (AMS1)' },
    },
  ],
};

describe.each(DIRECTORY_FILTERS)('%s list filters', (_resource, list, filters) => {
  it.each(filters)('filters on %s: exactly the records with that value are listed', async (filter) => {
    const world = await startContractWorld({ seed: SEED_WITH_OWN_TEMPLATE });
    await world.ada.scripts.create({
      scriptName: 'second',
      scriptText: 'true',
      isEnabled: false,
      runOnce: true,
    });
    const all = await list(world.ada, {});
    const example = all.find((record) => record[filter] !== null && record[filter] !== undefined);
    if (!example) throw new Error(`No record of Ada's has a value for ${filter}`);
    const value = example[filter];

    const listed = await list(world.ada, { [filter]: value });

    const expected = all.filter((record) => record[filter] === value).map((record) => record.id);
    expect(listed.map((record) => record.id).sort()).toEqual(expected.sort());
    expect(listed.length).toBeGreaterThan(0);
  });
});
