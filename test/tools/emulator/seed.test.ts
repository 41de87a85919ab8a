import { describe, expect, it } from 'vitest';
import { REGIONS } from '../../../src/paperspace/constants.js';
import {
  DEMO_SEED,
  parseSeed,
  SeedError,
  type SeedInput,
  startEmulator,
} from '../../../tools/emulator/index.js';
import { TEST_SEED } from './test-seed.js';

const minimal: SeedInput = {
  users: [{ id: 'u1', email: 'one@example.com', firstname: 'One', lastname: 'User', apiKey: 'key-one-123' }],
  templates: [{ id: 't1', name: 'paperspace/t1', os: 'Ubuntu 20.04' }],
};

function seedError(input: unknown): string {
  try {
    parseSeed(input);
  } catch (error) {
    expect(error).toBeInstanceOf(SeedError);
    return (error as Error).message;
  }
  throw new Error('the seed was accepted');
}

describe('seed validation', () => {
  it('accepts a minimal seed and fills in defaults', () => {
    const seed = parseSeed(minimal);
    expect(seed.teams).toEqual([]);
    expect(seed.machines).toEqual([]);
  });

  it('accepts a machine of a type only v1 sells on a template that offers it', () => {
    const seed = parseSeed({
      ...minimal,
      machines: [{ name: 'm', owner: 'u1', templateId: 't1', machineType: 'A100', region: 'Europe (AMS1)' }],
    });
    expect(seed.machines[0]?.machineType).toBe('A100');
  });

  it('names the path of a machine owner that does not exist', () => {
    const message = seedError({
      ...minimal,
      machines: [{ name: 'm', owner: 'u9', templateId: 't1', machineType: 'C4', region: 'East Coast (NY2)' }],
    });
    expect(message).toContain('machines[0].owner: no user with id "u9"');
  });

  it.each([
    [{ ...minimal, users: [{ ...minimal.users[0], team: 'nope' }] }, 'users[0].team: no team with id "nope"'],
    [{ ...minimal, users: [{ ...minimal.users[0], role: 'member' }] }, 'users[0].role'],
    [{ ...minimal, users: [{ ...minimal.users[0], email: 'not-an-email' }] }, 'users[0].email'],
    [{ ...minimal, users: [] }, 'users'],
    [
      { ...minimal, templates: [{ id: 't1', name: 'x', os: 'FreeBSD' }] },
      'templates[0].os: must name Windows or Ubuntu',
    ],
    // v1 answers every custom template with the machine it was made from and that machine's region.
    [
      { ...minimal, templates: [{ id: 't1', name: 'x', os: 'Ubuntu 22.04', account: 'u1' }] },
      "templates[0].madeFrom: an account's template names the machine it was made from",
    ],
    [
      {
        ...minimal,
        networks: [
          {
            id: 'n',
            name: 'n',
            region: 'Europe (AMS1)',
            network: '10.0.0.1',
            netmask: '255.255.255.0',
            account: 'u1',
          },
        ],
      },
      'networks[0].netmask: "10.0.0.1" is not the first address',
    ],
    [
      {
        ...minimal,
        machines: [{ name: 'm', owner: 'u1', templateId: 't1', machineType: 'Air', region: 'Europe (AMS1)' }],
      },
      'machines[0].machineType: Ubuntu templates cannot create',
    ],
    [
      {
        ...minimal,
        templates: [{ id: 't1', name: 'paperspace/t1', os: 'Windows 10' }],
        machines: [
          { name: 'm', owner: 'u1', templateId: 't1', machineType: 'A100', region: 'Europe (AMS1)' },
        ],
      },
      'machines[0].machineType: Windows templates cannot create A4000, A5000, A6000, A100, H100',
    ],
    [
      {
        ...minimal,
        machines: [{ name: 'm', owner: 'u1', templateId: 't1', machineType: 'C4', region: 'Mars' }],
      },
      'machines[0].region',
    ],
    [
      { ...minimal, scripts: [{ name: 's', owner: 'u1', text: 'x', machines: ['ps-none'] }] },
      'scripts[0].machines[0]',
    ],
    [{ ...minimal, colour: 'blue' }, 'colour'],
  ])('refuses %# naming the bad path', (input, path) => {
    expect(seedError(input)).toContain(path);
  });

  it('makes startEmulator fail with the same message', async () => {
    await expect(startEmulator({ seed: { users: [] } })).rejects.toThrow(SeedError);
  });
});

describe('the built-in demo seed', () => {
  it('is valid', () => {
    expect(() => parseSeed(DEMO_SEED)).not.toThrow();
  });

  it('has an individual account and a team with an administrator and a member, each with keys', async () => {
    const emulator = await startEmulator({ transitionMs: 0 });
    try {
      const users = emulator.state.users();
      expect(users.map((user) => [user.accountKind, user.role])).toEqual([
        ['individual', 'admin'],
        ['team', 'admin'],
        ['team', 'member'],
      ]);
      expect(users.every((user) => user.apiKey && user.accessToken)).toBe(true);
    } finally {
      await emulator.close();
    }
  });

  it('has machines of each account, off and running, in every region, with GPU types', () => {
    const machines = DEMO_SEED.machines ?? [];
    const owners = new Set(machines.map((machine) => machine.owner));
    expect(owners).toEqual(new Set(['u1ada', 'u1maya', 'u1sam']));
    const states = new Set(machines.map((machine) => machine.state));
    expect(states).toContain('off');
    expect(states).toContain('ready');
    expect(new Set(machines.map((machine) => machine.region))).toEqual(new Set(REGIONS));
    expect(
      machines.filter((machine) => ['P4000', 'P5000', 'V100', 'GPU+'].includes(machine.machineType)).length,
    ).toBeGreaterThan(2);
  });

  it('has Windows and Ubuntu templates, a team network per region and a couple of scripts', () => {
    const oses = (DEMO_SEED.templates ?? []).map((template) => template.os);
    expect(oses.some((os) => /windows/i.test(os))).toBe(true);
    expect(oses.some((os) => /ubuntu/i.test(os))).toBe(true);
    const teamNetworks = (DEMO_SEED.networks ?? []).filter((network) => network.account === 'te1orbit');
    expect(new Set(teamNetworks.map((network) => network.region))).toEqual(new Set(REGIONS));
    expect((DEMO_SEED.scripts ?? []).length).toBeGreaterThanOrEqual(2);
  });
});

describe('seeded transitional states', () => {
  it('completes a machine seeded as starting after one transition', async () => {
    let now = Date.UTC(2024, 0, 1);
    const seed: SeedInput = {
      ...TEST_SEED,
      machines: [
        {
          id: 'ps-s',
          name: 's',
          owner: 'u-ivy',
          templateId: 't-win',
          machineType: 'P4000',
          region: 'West Coast (CA1)',
          state: 'starting',
        },
      ],
    };
    const emulator = await startEmulator({ seed, transitionMs: 500, now: () => now });
    try {
      expect(emulator.state.machine('ps-s')?.state).toBe('starting');
      now += 500;
      expect(emulator.state.machine('ps-s')?.state).toBe('ready');
    } finally {
      await emulator.close();
    }
  });
});
