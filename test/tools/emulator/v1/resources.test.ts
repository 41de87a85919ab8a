import { describe, expect, it } from 'vitest';
import { TRANSITION_MS } from '../harness.js';
import { KEY } from '../test-seed.js';
import { startV1 } from './v1-harness.js';

describe('v1 accessors', () => {
  it('grants, lists, shows and revokes a team member’s access; the member then sees the machine or not', async () => {
    const api = await startV1();
    const machine = '/machines/ps-ivy-off';
    // Ivy is alone on her account: grant on a team machine instead.
    const team = '/machines/ps-alma-off';
    expect((await api.call('GET', team, { key: KEY.otto })).status).toBe(404);
    const added = await api.call('POST', `${team}/accessors`, { key: KEY.alma, body: { userId: 'u-milo' } });
    expect(added.status).toBe(200);
    expect(added.body.user).toMatchObject({ id: 'u-milo', email: 'milo@acme.example', firstName: 'Milo' });
    const list = await api.all(`${team}/accessors`, KEY.milo);
    expect(list.items.map((accessor) => accessor.user.id)).toEqual(['u-milo']);
    expect((await api.call('GET', `${team}/accessors/u-milo`, { key: KEY.alma })).status).toBe(200);
    const removed = await api.call('DELETE', `${team}/accessors/u-milo`, { key: KEY.alma });
    expect(removed.status).toBe(200);
    expect(removed.body.dtDeleted).not.toBeNull();
    expect((await api.call('GET', `${team}/accessors/u-milo`, { key: KEY.alma })).status).toBe(404);
    expect((await api.call('GET', `${machine}/accessors`, { key: KEY.ivy })).body.items).toEqual([]);
  });

  it('grants only to team members, and only as owner or administrator', async () => {
    const api = await startV1();
    const outsider = await api.call('POST', '/machines/ps-alma-off/accessors', {
      key: KEY.alma,
      body: { userId: 'u-otto' },
    });
    expect(outsider.status).toBe(400);
    const member = await api.call('POST', '/machines/ps-nora-off/accessors', {
      key: KEY.milo,
      body: { userId: 'u-milo' },
    });
    expect(member.status).toBe(403);
  });
});

describe('v1 startup scripts', () => {
  it('creates, lists, edits, assigns and unassigns a script, and never answers its text', async () => {
    const api = await startV1();
    const created = await api.call('POST', '/startup-scripts', {
      key: KEY.alma,
      body: { name: 'setup', script: 'apt-get update', isRunOnce: true },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'setup',
      isRunOnce: true,
      isEnabled: true,
      assignedMachineIds: [],
    });
    expect(JSON.stringify(created.body)).not.toContain('apt-get');
    const id = created.body.id;
    const shown = await api.call('GET', `/startup-scripts/${id}`, { key: KEY.milo });
    expect(shown.body).not.toHaveProperty('script');
    const edited = await api.call('PUT', `/startup-scripts/${id}`, {
      key: KEY.alma,
      body: { script: 'apt-get upgrade -y', isEnabled: false },
    });
    expect(edited.body.isEnabled).toBe(false);
    expect(api.emulator.state.scripts().find((script) => script.id === id)?.text).toBe('apt-get upgrade -y');
    const assigned = await api.call('POST', `/startup-scripts/${id}/assign`, {
      key: KEY.alma,
      body: { machineId: 'ps-milo-up' },
    });
    expect(assigned.body.assignedMachineIds).toEqual(['ps-milo-up']);
    const unassigned = await api.call('POST', `/startup-scripts/${id}/unassign`, {
      key: KEY.alma,
      body: { machineId: 'ps-milo-up' },
    });
    expect(unassigned.body.assignedMachineIds).toEqual([]);
    const list = await api.all('/startup-scripts', KEY.alma, { name: 'setup' });
    expect(list.items.map((script) => script.id)).toEqual([id]);
    const deleted = await api.call('DELETE', `/startup-scripts/${id}`, { key: KEY.alma });
    expect(deleted.status).toBe(200);
    expect((await api.call('GET', `/startup-scripts/${id}`, { key: KEY.alma })).status).toBe(404);
  });

  it('refuses text over 16 KB, and another account’s script', async () => {
    const api = await startV1();
    const big = await api.call('POST', '/startup-scripts', {
      key: KEY.alma,
      body: { name: 'big', script: 'x'.repeat(16_385) },
    });
    expect(big.status).toBe(400);
    const mine = await api.call('POST', '/startup-scripts', {
      key: KEY.alma,
      body: { name: 's', script: 'echo' },
    });
    expect((await api.call('GET', `/startup-scripts/${mine.body.id}`, { key: KEY.otto })).status).toBe(404);
  });
});

describe('v1 templates, users and availability', () => {
  it('lists stock images as OS templates and the account’s own as custom templates', async () => {
    const api = await startV1();
    const os = await api.all('/os-templates', KEY.alma);
    expect(os.items.map((template) => template.id).sort()).toEqual(['t-desktop', 't-ubuntu', 't-win']);
    expect(os.items[0]).toEqual(
      expect.objectContaining({
        agentType: expect.any(String),
        operatingSystemLabel: expect.any(String),
        defaultSizeGb: 50,
        availableMachineTypes: expect.arrayContaining([
          { machineTypeLabel: 'C4', isAvailable: expect.any(Boolean) },
        ]),
      }),
    );
    const windows = os.items.find((template) => template.id === 't-win');
    expect(windows.availableMachineTypes).toContainEqual({ machineTypeLabel: 'C4', isAvailable: false });
    const custom = await api.all('/custom-templates', KEY.alma);
    expect(custom.items.map((template) => template.id)).toEqual(['t-acme']);
    expect((await api.all('/custom-templates', KEY.otto)).items).toEqual([]);
  });

  it('lists the team’s users with their roles, and refuses another team', async () => {
    const api = await startV1();
    const { items } = await api.all('/teams/te-acme/users', KEY.milo, { limit: 2 });
    expect(items.map((member) => member.user.id).sort()).toEqual(['u-alma', 'u-milo', 'u-nora']);
    expect(items.find((member) => member.user.id === 'u-alma')).toMatchObject({ isAdmin: true });
    const admins = await api.all('/teams/te-acme/users', KEY.milo, { role: 'admin' });
    expect(admins.items.map((member) => member.user.id)).toEqual(['u-alma']);
    expect((await api.call('GET', '/teams/te-other/users', { key: KEY.milo })).status).toBe(404);
  });

  it('addresses the team by its namespace too, as Paperspace’s CLI does', async () => {
    const api = await startV1();
    const { items } = await api.all('/teams/acme/users', KEY.milo);
    expect(items.map((member) => member.user.id).sort()).toEqual(['u-alma', 'u-milo', 'u-nora']);
  });

  it('answers availability by machine type and region id', async () => {
    const api = await startV1();
    const query = { machineType: 'P6000', region: 'ny2' };
    expect((await api.call('GET', '/machine-availability', { key: KEY.ivy, query })).body).toEqual({
      available: false,
    });
    api.emulator.state.setAvailability('East Coast (NY2)', 'P6000', true);
    expect((await api.call('GET', '/machine-availability', { key: KEY.ivy, query })).body).toEqual({
      available: true,
    });
    const bad = await api.call('GET', '/machine-availability', {
      key: KEY.ivy,
      query: { machineType: 'P6000' },
    });
    expect(bad.status).toBe(400);
  });

  it('answers availability for any type v1 sells, not only dedicated GPUs, and refuses a label it does not', async () => {
    const api = await startV1();
    const ask = (machineType: string) =>
      api.call('GET', '/machine-availability', { key: KEY.ivy, query: { machineType, region: 'ams1' } });
    expect((await ask('C4')).body).toEqual({ available: true });
    expect((await ask('A100')).body).toEqual({ available: true });
    // The same answer create obeys: a type made unavailable cannot be created there.
    api.emulator.state.setAvailability('Europe (AMS1)', 'A100', false);
    expect((await ask('A100')).body).toEqual({ available: false });
    const body = {
      name: 'a100-ams',
      machineType: 'A100',
      templateId: 't-ubuntu',
      region: 'ams1',
      diskSize: 50,
    };
    const create = await api.call('POST', '/machines', { key: KEY.alma, body });
    expect(create.status).toBe(400);
    expect(JSON.stringify(create.body)).toContain('not available');
    const unknown = await ask('Z9000');
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('Z9000');
  });
});

describe('v1 private networks and shared drives', () => {
  it('creates, renames and deletes a network; one in use cannot be deleted', async () => {
    const api = await startV1();
    const created = await api.call('POST', '/private-networks', {
      key: KEY.alma,
      body: { name: 'lab', region: 'ca1' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'lab', region: 'ca1', netmask: '255.255.255.0' });
    const id = created.body.id;
    const renamed = await api.call('PUT', `/private-networks/${id}`, {
      key: KEY.alma,
      body: { name: 'lab-2' },
    });
    expect(renamed.body.name).toBe('lab-2');
    const list = await api.all('/private-networks', KEY.alma, { region: 'ca1' });
    expect(list.items.map((network) => network.id)).toEqual([id]);
    const inUse = await api.call('DELETE', '/private-networks/n-acme-ny', { key: KEY.alma });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('CONFLICT');
    expect((await api.call('DELETE', `/private-networks/${id}`, { key: KEY.alma })).body).toEqual({ id });
    expect((await api.call('GET', `/private-networks/${id}`, { key: KEY.alma })).status).toBe(404);
  });

  it('manages shared drives over REST with the same Bearer key, for team administrators only', async () => {
    const api = await startV1();
    const listed = await api.all('/shared-drives', KEY.alma);
    expect(listed.items.map((drive) => drive.id)).toEqual(['sd-acme']);
    const created = await api.call('POST', '/shared-drives', {
      key: KEY.alma,
      body: { name: 'scratch', networkId: 'n-acme-ny', region: 'ny2', size: 50 },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'scratch',
      size: 50 * 1024 ** 3,
      region: 'ny2',
      networkId: 'n-acme-ny',
    });
    expect(created.body.password).toEqual(expect.any(String));
    const renamed = await api.call('PUT', `/shared-drives/${created.body.id}`, {
      key: KEY.alma,
      body: { name: 's2' },
    });
    expect(renamed.body.name).toBe('s2');
    expect((await api.call('GET', '/shared-drives', { key: KEY.milo })).status).toBe(403);
    const wrongRegion = await api.call('POST', '/shared-drives', {
      key: KEY.alma,
      body: { name: 'x', networkId: 'n-acme-ny', region: 'ams1', size: 50 },
    });
    expect(wrongRegion.status).toBe(400);
    expect((await api.call('DELETE', `/shared-drives/${created.body.id}`, { key: KEY.alma })).body).toEqual({
      id: created.body.id,
    });
    expect(api.emulator.state.drives().map((drive) => drive.id)).toEqual(['sd-acme']);
  });
});

describe('one world for both dialects', () => {
  it('a machine started through v1 is starting for the contract, and a contract stop shows in v1 events', async () => {
    const api = await startV1();
    await api.call('PATCH', '/machines/ps-ivy-off/start', { key: KEY.ivy, body: {} });
    const contract = await api.get('/machines/getMachinePublic', {
      key: KEY.ivy,
      query: { machineId: 'ps-ivy-off' },
    });
    expect(contract.body.state).toBe('starting');
    api.clock.advance(TRANSITION_MS);
    expect((await api.post('/machines/ps-ivy-off/stop', { key: KEY.ivy })).status).toBe(204);
    const events = await api.all('/machine-events', KEY.ivy, {
      machineId: 'ps-ivy-off',
      orderBy: 'dtCreated',
      order: 'desc',
    });
    expect(events.items[0]).toMatchObject({ name: 'stop', state: 'in progress' });
  });
});
