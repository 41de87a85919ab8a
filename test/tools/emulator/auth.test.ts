import { describe, expect, it } from 'vitest';
import { type Harness, nestedError, startHarness } from './harness.js';
import { KEY, TOKEN } from './test-seed.js';

const machineIds = (response: { body: Array<{ id: string }> }) =>
  response.body.map((machine) => machine.id).sort();

describe('authentication', () => {
  it('refuses a request without an API key with a flat 401 body', async () => {
    const api = await startHarness();
    const response = await api.get('/machines/getMachines');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 401, message: expect.stringContaining('X-Api-Key') });
  });

  it('refuses an unknown API key with "Invalid API token"', async () => {
    const api = await startHarness();
    const response = await api.get('/machines/getMachines', { key: 'not-a-key' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 401, message: 'Invalid API token' });
  });

  it('does not accept an access token in place of an API key on REST', async () => {
    const api = await startHarness();
    expect((await api.get('/machines/getMachines', { token: TOKEN.alma })).status).toBe(401);
  });

  it('refuses GraphQL calls without a valid bearer access token, in the errors array', async () => {
    const api = await startHarness();
    for (const token of [undefined, 'wrong-token', KEY.alma]) {
      const response = await api.graphql(token, '{ sharedDrives(first: 5) { nodes { id } } }');
      expect(response.status).toBe(401);
      expect(response.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('what lists show', () => {
  it('shows an individual user only their own machines', async () => {
    const api = await startHarness();
    expect(machineIds(await api.get('/machines/getMachines', { key: KEY.ivy }))).toEqual([
      'ps-ivy-off',
      'ps-ivy-ready',
    ]);
  });

  it("shows a team member every machine of the team and nobody else's", async () => {
    const api = await startHarness();
    expect(machineIds(await api.get('/machines/getMachines', { key: KEY.milo }))).toEqual([
      'ps-alma-off',
      'ps-milo-off',
      'ps-milo-up',
      'ps-nora-off',
    ]);
  });

  it("answers 404 when showing another account's machine, as if it did not exist", async () => {
    const api = await startHarness();
    const response = await api.get('/machines/getMachinePublic', {
      key: KEY.otto,
      query: { machineId: 'ps-milo-off' },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(nestedError(404));
  });
});

async function operate(api: Harness, key: string, machineId: string, operation: string) {
  return (await api.post(`/machines/${machineId}/${operation}`, { key })).status;
}

describe('start, stop and restart belong to the owner', () => {
  it.each(['start', 'stop', 'restart'])('lets the owner %s their machine', async (operation) => {
    const api = await startHarness();
    expect(await operate(api, KEY.milo, 'ps-milo-up', operation)).toBeLessThan(300);
  });

  it.each([
    ['a teammate', KEY.nora],
    ['the team administrator', KEY.alma],
  ])('forbids %s to start, stop or restart a machine they do not own (403)', async (_who, key) => {
    const api = await startHarness();
    for (const operation of ['start', 'stop', 'restart']) {
      const response = await api.post(`/machines/ps-milo-up/${operation}`, { key });
      expect(response.status).toBe(403);
      expect(response.body).toEqual(nestedError(403));
    }
    expect(api.emulator.state.machine('ps-milo-up')?.state).toBe('serviceready');
  });

  it('answers 404 to a caller from another account', async () => {
    const api = await startHarness();
    expect(await operate(api, KEY.otto, 'ps-milo-off', 'start')).toBe(404);
  });
});

describe('destroy', () => {
  it('forbids a team member to destroy a teammate’s machine', async () => {
    const api = await startHarness();
    const response = await api.post('/machines/ps-milo-off/destroyMachine', { key: KEY.nora });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(nestedError(403));
  });

  it('lets the team administrator destroy a member’s machine', async () => {
    const api = await startHarness();
    expect(await operate(api, KEY.alma, 'ps-milo-off', 'destroyMachine')).toBe(204);
    expect(api.emulator.state.machine('ps-milo-off')).toBeUndefined();
  });

  it('lets the owner destroy their machine', async () => {
    const api = await startHarness();
    expect(await operate(api, KEY.ivy, 'ps-ivy-off', 'destroyMachine')).toBe(204);
  });

  it('answers 404 to an administrator of another team', async () => {
    const api = await startHarness();
    expect(await operate(api, KEY.otto, 'ps-milo-off', 'destroyMachine')).toBe(404);
  });
});

describe('machine access', () => {
  it('lets an accessor see the machine in lists and show, but not start it', async () => {
    const api = await startHarness();
    const grant = await api.post('/machines/ps-otto-off/setMachineAccess', {
      key: KEY.otto,
      body: { userId: 'u-ivy', enableAccess: true },
    });
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({});
    expect(machineIds(await api.get('/machines/getMachines', { key: KEY.ivy }))).toContain('ps-otto-off');
    const shown = await api.get('/machines/getMachinePublic', {
      key: KEY.ivy,
      query: { machineId: 'ps-otto-off' },
    });
    expect(shown.body.name).toBe('otto-cpu');
    expect(await operate(api, KEY.ivy, 'ps-otto-off', 'start')).toBe(403);
    expect(await operate(api, KEY.ivy, 'ps-otto-off', 'destroyMachine')).toBe(403);
  });

  it('hides the machine again once access is removed', async () => {
    const api = await startHarness();
    const body = { userId: 'u-ivy', enableAccess: true };
    await api.post('/machines/ps-otto-off/setMachineAccess', { key: KEY.otto, body });
    await api.post('/machines/ps-otto-off/setMachineAccess', {
      key: KEY.otto,
      body: { ...body, enableAccess: false },
    });
    expect(machineIds(await api.get('/machines/getMachines', { key: KEY.ivy }))).not.toContain('ps-otto-off');
  });

  it("forbids a team member to change access to a teammate's machine", async () => {
    const api = await startHarness();
    const response = await api.post('/machines/ps-milo-off/setMachineAccess', {
      key: KEY.nora,
      body: { userId: 'u-ivy', enableAccess: true },
    });
    expect(response.status).toBe(403);
  });

  it('refuses access for a user that does not exist (400)', async () => {
    const api = await startHarness();
    const response = await api.post('/machines/ps-otto-off/setMachineAccess', {
      key: KEY.otto,
      body: { userId: 'u-ghost', enableAccess: true },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toContain('u-ghost');
  });
});

describe('update', () => {
  it('lets the owner rename the machine and change its settings', async () => {
    const api = await startHarness();
    const response = await api.post('/machines/ps-ivy-off/updateMachinePublic', {
      key: KEY.ivy,
      body: {
        machineName: 'renamed',
        shutdownTimeoutInHours: 3,
        autoSnapshotFrequency: 'day',
        performAutoSnapshot: true,
      },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'renamed',
      shutdownTimeoutInHours: 3,
      autoSnapshotFrequency: 'day',
    });
  });

  it('forbids a teammate to update a machine, and refuses assignPublicIp with dynamicPublicIp', async () => {
    const api = await startHarness();
    expect(
      (await api.post('/machines/ps-milo-off/updateMachinePublic', { key: KEY.nora, body: {} })).status,
    ).toBe(403);
    const combined = await api.post('/machines/ps-milo-off/updateMachinePublic', {
      key: KEY.milo,
      body: { assignPublicIp: true, dynamicPublicIp: true },
    });
    expect(combined.status).toBe(400);
    expect(combined.body).toEqual(nestedError(400));
  });
});
