import { describe, expect, it } from 'vitest';
import { nestedError, startHarness } from './harness.js';
import { KEY } from './test-seed.js';

const CREATE = '/machines/createSingleMachinePublic';

/** A valid request for Ivy's individual account. */
const individual = {
  region: 'East Coast (NY2)',
  machineType: 'C4',
  size: 50,
  billingType: 'hourly',
  machineName: 'fresh',
  templateId: 't-ubuntu',
};

/** A valid request for Alma, administrator of team Acme, assigning the machine to Milo. */
const forTeam = { ...individual, teamId: 'te-acme', userId: 'u-milo' };

describe('who may create machines', () => {
  it('lets an individual account create a machine it then owns, answering 200 in provisioning', async () => {
    const api = await startHarness();
    const response = await api.post(CREATE, { key: KEY.ivy, body: individual });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'fresh',
      state: 'provisioning',
      os: null,
      ram: null,
      userId: 'u-ivy',
    });
    expect(response.body.events).toBeUndefined();
  });

  it('forbids a team member to create a machine (403)', async () => {
    const api = await startHarness();
    const response = await api.post(CREATE, { key: KEY.milo, body: forTeam });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(nestedError(403));
  });

  it('lets a team administrator create a machine for a member, who then owns it', async () => {
    const api = await startHarness();
    const response = await api.post(CREATE, { key: KEY.alma, body: forTeam });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ userId: 'u-milo', teamId: 'te-acme' });
    expect((await api.post(`/machines/${response.body.id}/stop`, { key: KEY.milo })).status).toBe(204);
    expect((await api.post(`/machines/${response.body.id}/stop`, { key: KEY.alma })).status).toBe(403);
  });

  it('lets a team administrator create a new team user along with the machine', async () => {
    const api = await startHarness();
    const { userId: _, ...withoutUser } = forTeam;
    const newUser = {
      email: 'newbie@acme.example',
      password: 'correct horse',
      firstName: 'New',
      lastName: 'Bie',
    };
    const response = await api.post(CREATE, { key: KEY.alma, body: { ...withoutUser, ...newUser } });
    expect(response.status).toBe(200);
    const users = await api.get('/users/getUsers', {
      key: KEY.alma,
      query: { email: 'newbie@acme.example' },
    });
    expect(users.body).toEqual([
      expect.objectContaining({ id: response.body.userId, teamId: 'te-acme', firstname: 'New' }),
    ]);
  });

  it('forbids a team administrator to create for another team', async () => {
    const api = await startHarness();
    expect((await api.post(CREATE, { key: KEY.otto, body: forTeam })).status).toBe(403);
  });
});

describe('forbidden combinations answer 400 in the nested error shape', () => {
  const newUser = { email: 'x@acme.example', password: 'pw', firstName: 'X', lastName: 'Y' };
  const { userId: _, ...teamWithoutUser } = forTeam;
  it.each([
    [
      'assignPublicIp with dynamicPublicIp',
      KEY.ivy,
      { ...individual, assignPublicIp: true, dynamicPublicIp: true },
      /assignPublicIp/,
    ],
    [
      'assignPublicIp with dynamicPublicIp, even when one of them is false',
      KEY.ivy,
      { ...individual, assignPublicIp: false, dynamicPublicIp: true },
      /assignPublicIp and dynamicPublicIp cannot be combined/,
    ],
    [
      'userId with a new-user field',
      KEY.alma,
      { ...forTeam, email: 'x@acme.example' },
      /userId cannot be combined with email/,
    ],
    ['userId with every new-user field', KEY.alma, { ...forTeam, ...newUser }, /userId cannot be combined/],
    [
      'markSnapshotAsRestorePoint without takeInitialSnapshot',
      KEY.ivy,
      { ...individual, markSnapshotAsRestorePoint: true, restorePointFrequency: 'shutdown' },
      /takeInitialSnapshot/,
    ],
    [
      'markSnapshotAsRestorePoint without restorePointFrequency',
      KEY.ivy,
      { ...individual, markSnapshotAsRestorePoint: true, takeInitialSnapshot: true },
      /restorePointFrequency/,
    ],
    [
      'a Windows template with C1',
      KEY.ivy,
      { ...individual, templateId: 't-win', machineType: 'C1' },
      /Windows/,
    ],
    [
      'a Windows template with C10',
      KEY.ivy,
      { ...individual, templateId: 't-win', machineType: 'C10' },
      /Windows/,
    ],
    ['an Ubuntu template with Air', KEY.ivy, { ...individual, machineType: 'Air' }, /Ubuntu/],
    ['an Ubuntu template with Advanced', KEY.ivy, { ...individual, machineType: 'Advanced' }, /Ubuntu/],
    ['a team administrator assigning nobody', KEY.alma, teamWithoutUser, /assign the machine to a user/],
    [
      'a new user with missing fields',
      KEY.alma,
      { ...teamWithoutUser, email: 'x@acme.example' },
      /password, firstName, lastName/,
    ],
    [
      'a team administrator without teamId',
      KEY.alma,
      { ...individual, userId: 'u-milo' },
      /teamId is required/,
    ],
    ['a userId outside the team', KEY.alma, { ...forTeam, userId: 'u-ivy' }, /not a member/],
    [
      'an individual assigning another user',
      KEY.ivy,
      { ...individual, userId: 'u-milo' },
      /individual account/,
    ],
    ['an unknown region', KEY.ivy, { ...individual, region: 'Mars' }, /^region:/],
    ['an unknown machine type', KEY.ivy, { ...individual, machineType: 'H100' }, /^machineType:/],
    ['a storage size that is not offered', KEY.ivy, { ...individual, size: 42 }, /^size:/],
    ['a billing type other than hourly', KEY.ivy, { ...individual, billingType: 'monthly' }, /^billingType:/],
    ['a missing machineName', KEY.ivy, { ...individual, machineName: undefined }, /^machineName:/],
    ['an unknown parameter', KEY.ivy, { ...individual, name: 'typo' }, /name/],
    ['an unknown template', KEY.ivy, { ...individual, templateId: 't-nope' }, /templateId/],
    ["another team's template", KEY.ivy, { ...individual, templateId: 't-acme' }, /templateId/],
    [
      'a network in another region',
      KEY.alma,
      { ...forTeam, region: 'West Coast (CA1)', networkId: 'n-acme-ny' },
      /networkId/,
    ],
    ["another account's network", KEY.ivy, { ...individual, networkId: 'n-acme-ny' }, /networkId/],
    ['an unknown script', KEY.ivy, { ...individual, scriptId: 'sc-nope' }, /scriptId/],
  ])('refuses %s', async (_case, key, body, message) => {
    const api = await startHarness();
    const response = await api.post(CREATE, { key, body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nestedError(400));
    expect(response.body.error.message).toMatch(message);
  });

  it('refuses a body that is not JSON', async () => {
    const api = await startHarness();
    const response = await fetch(`${api.emulator.url}${CREATE}`, {
      method: 'POST',
      headers: { 'X-Api-Key': KEY.ivy, 'Content-Type': 'application/json' },
      body: '{"region":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(nestedError(400));
  });
});

describe('creation details', () => {
  it('refuses a dedicated GPU type that is unavailable in the region', async () => {
    const api = await startHarness();
    api.emulator.state.setAvailability('East Coast (NY2)', 'V100', false);
    const response = await api.post(CREATE, { key: KEY.ivy, body: { ...individual, machineType: 'V100' } });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/V100.*not available/);
  });

  it('gives machines on a network a private address until the network is full', async () => {
    const api = await startHarness();
    const body = { ...forTeam, region: 'Europe (AMS1)', networkId: 'n-acme-tiny' };
    const addresses: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      const response = await api.post(CREATE, { key: KEY.alma, body: { ...body, machineName: `tiny-${n}` } });
      expect(response.status).toBe(200);
      addresses.push(response.body.privateIpAddress);
    }
    expect(addresses).toEqual(['10.2.0.2', '10.2.0.3', '10.2.0.4', '10.2.0.5', '10.2.0.6']);
    const full = await api.post(CREATE, { key: KEY.alma, body });
    expect(full.status).toBe(400);
    expect(full.body.error.message).toMatch(/no free IP space/);
  });

  it('fills in the hardware once provisioning is over', async () => {
    const api = await startHarness();
    const created = await api.post(CREATE, {
      key: KEY.ivy,
      body: { ...individual, assignPublicIp: true, size: 100 },
    });
    api.clock.advance(60_000);
    const shown = await api.get('/machines/getMachinePublic', {
      key: KEY.ivy,
      query: { machineId: created.body.id },
    });
    expect(shown.body).toMatchObject({
      os: 'Ubuntu 20.04',
      cpus: 2,
      ram: String(4 * 1024 ** 3),
      storageTotal: String(100 * 1024 ** 3),
      usageRate: 'C4 hourly',
      publicIpAddress: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+$/),
    });
  });

  it('keeps the initial snapshot as a restore point when asked', async () => {
    const api = await startHarness();
    const body = {
      ...individual,
      takeInitialSnapshot: true,
      markSnapshotAsRestorePoint: true,
      restorePointFrequency: 'shutdown',
    };
    const created = await api.post(CREATE, { key: KEY.ivy, body });
    expect(created.status).toBe(200);
    api.clock.advance(60_000);
    expect(api.emulator.state.machine(created.body.id)).toMatchObject({
      restorePointSnapshotId: expect.any(String),
      restorePointFrequency: 'shutdown',
    });
  });
});
