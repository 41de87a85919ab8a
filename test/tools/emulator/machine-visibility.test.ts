// Lists are served from the world's indexes (world-index.ts) instead of a scan of every machine; these
// check that a caller still sees exactly what the visibility rule allows, in creation order, while
// grants, new machines and destroys change the world.
import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';
import { KEY } from './test-seed.js';

/** What a scan of every machine under the rule (own account, own machines, grants) would answer. */
function expectedFor(api: Harness, userId: string): string[] {
  const user = api.emulator.state.user(userId);
  if (!user) throw new Error(`no user ${userId}`);
  return api.emulator.state
    .machines()
    .filter(
      (machine) =>
        machine.teamId === user.accountId ||
        machine.userId === user.id ||
        api.emulator.state.accessors(machine.id).includes(user.id),
    )
    .map((machine) => machine.id);
}

async function listed(api: Harness, key: string): Promise<string[]> {
  const response = await api.get('/machines/getMachines', { key });
  expect(response.status).toBe(200);
  return response.body.map((machine: { id: string }) => machine.id);
}

async function setAccess(api: Harness, ownerKey: string, machineId: string, userId: string, enable: boolean) {
  const response = await api.post(`/machines/${machineId}/setMachineAccess`, {
    key: ownerKey,
    body: { userId, enableAccess: enable },
  });
  expect(response.status).toBe(200);
}

describe('which machines a list answers', () => {
  it("puts a machine shared from another account in creation order among the team's own", async () => {
    const api = await startHarness();
    await setAccess(api, KEY.ivy, 'ps-ivy-ready', 'u-milo', true);
    const milo = await listed(api, KEY.milo);
    expect(milo).toEqual(expectedFor(api, 'u-milo'));
    // ps-ivy-ready was created before every Acme machine, so a scan answered it first.
    expect(milo[0]).toBe('ps-ivy-ready');
    expect(milo).toContain('ps-nora-off');
  });

  it('follows new machines, revoked grants and destroyed machines', async () => {
    const api = await startHarness();
    const [later] = api.emulator.state.addMachines(1, { owner: 'u-otto', namePrefix: 'otto-new' });
    if (later === undefined) throw new Error('no machine added');
    await setAccess(api, KEY.otto, later, 'u-ivy', true);
    await setAccess(api, KEY.otto, 'ps-otto-off', 'u-ivy', true);
    expect(await listed(api, KEY.ivy)).toEqual(['ps-ivy-off', 'ps-ivy-ready', 'ps-otto-off', later]);

    await setAccess(api, KEY.otto, 'ps-otto-off', 'u-ivy', false);
    expect(await listed(api, KEY.ivy)).toEqual(['ps-ivy-off', 'ps-ivy-ready', later]);

    expect((await api.post(`/machines/${later}/destroyMachine`, { key: KEY.otto })).status).toBe(204);
    expect(await listed(api, KEY.ivy)).toEqual(['ps-ivy-off', 'ps-ivy-ready']);
    expect(await listed(api, KEY.otto)).toEqual(expectedFor(api, 'u-otto'));
    const show = await api.get('/machines/getMachinePublic', { key: KEY.ivy, query: { machineId: later } });
    expect(show.status).toBe(404);
  });

  it('answers every seeded person the same list a scan of the world would', async () => {
    const api = await startHarness();
    for (const user of api.emulator.state.users()) {
      if (user.apiKey === null) continue;
      expect(await listed(api, user.apiKey)).toEqual(expectedFor(api, user.id));
    }
  });
});
