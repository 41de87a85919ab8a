import { describe, expect, it } from 'vitest';
import { DELEGATION_LIFETIME_MS } from '../../../src/paperspace/constants.js';
import { type Harness, nestedError, startHarness } from './harness.js';
import { KEY } from './test-seed.js';

async function delegate(api: Harness, key: string, ids: string[]) {
  return api.post('/resourceDelegations/create', { key, body: { machine: { ids } } });
}

describe('creating a resource delegation', () => {
  it('answers the delegation, enabled, with a numeric id and an access token id', async () => {
    const api = await startHarness();
    const response = await delegate(api, KEY.ivy, ['ps-ivy-ready']);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.any(Number),
      delegation: { machine: { ids: ['ps-ivy-ready'] } },
      isEnabled: true,
      accessTokenId: expect.any(String),
      dtCreated: '2024-05-15T09:00:00.000Z',
    });
  });

  it('lets a team member delegate a teammate’s machine, which they can see', async () => {
    const api = await startHarness();
    expect((await delegate(api, KEY.nora, ['ps-milo-up'])).status).toBe(200);
  });

  it('refuses machines the caller cannot see with 404, creating nothing', async () => {
    const api = await startHarness();
    const response = await delegate(api, KEY.ivy, ['ps-ivy-ready', 'ps-otto-off']);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(nestedError(404));
    expect(api.emulator.state.delegations()).toEqual([]);
  });

  it('refuses a malformed body with 400', async () => {
    const api = await startHarness();
    const response = await api.post('/resourceDelegations/create', {
      key: KEY.ivy,
      body: { machine: { ids: 'ps-ivy-ready' } },
    });
    expect(response.status).toBe(400);
  });
});

describe('the delegated access token', () => {
  it('reads only the delegated machines, in list and show', async () => {
    const api = await startHarness();
    const { accessTokenId } = (await delegate(api, KEY.ivy, ['ps-ivy-ready'])).body;
    const list = await api.get('/machines/getMachines', { key: accessTokenId });
    expect(list.body.map((machine: { id: string }) => machine.id)).toEqual(['ps-ivy-ready']);
    const shown = await api.get('/machines/getMachinePublic', {
      token: accessTokenId,
      query: { machineId: 'ps-ivy-ready' },
    });
    expect(shown.status).toBe(200);
    const other = await api.get('/machines/getMachinePublic', {
      key: accessTokenId,
      query: { machineId: 'ps-ivy-off' },
    });
    expect(other.status).toBe(404);
  });

  it('cannot operate machines or reach other endpoints (403)', async () => {
    const api = await startHarness();
    const { accessTokenId } = (await delegate(api, KEY.ivy, ['ps-ivy-ready'])).body;
    expect((await api.post('/machines/ps-ivy-ready/stop', { key: accessTokenId })).status).toBe(403);
    expect((await api.get('/scripts/getScripts', { key: accessTokenId })).status).toBe(403);
  });

  it('works until 4 hours after creation, then answers 401 and the delegation shows as disabled', async () => {
    const api = await startHarness();
    const { accessTokenId } = (await delegate(api, KEY.ivy, ['ps-ivy-ready'])).body;
    const show = () =>
      api.get('/machines/getMachinePublic', { key: accessTokenId, query: { machineId: 'ps-ivy-ready' } });
    api.clock.advance(DELEGATION_LIFETIME_MS - 1);
    expect((await show()).status).toBe(200);
    expect(api.emulator.state.delegations()[0]?.isEnabled).toBe(true);
    api.clock.advance(1);
    const expired = await show();
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ status: 401, message: 'Access token expired' });
    expect(api.emulator.state.delegations()[0]?.isEnabled).toBe(false);
  });

  it('does not extend the owner’s own key: the owner keeps full access after expiry', async () => {
    const api = await startHarness();
    await delegate(api, KEY.ivy, ['ps-ivy-ready']);
    api.clock.advance(DELEGATION_LIFETIME_MS);
    expect((await api.post('/machines/ps-ivy-ready/stop', { key: KEY.ivy })).status).toBe(204);
  });
});
