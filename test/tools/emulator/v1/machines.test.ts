import { describe, expect, it } from 'vitest';
import { TRANSITION_MS } from '../harness.js';
import { KEY } from '../test-seed.js';
import { startV1 } from './v1-harness.js';

const GIB = 1024 ** 3;

const CREATE = { name: 'render-1', machineType: 'C4', templateId: 't-ubuntu', region: 'ny2', diskSize: 50 };

describe('v1 machines', () => {
  it('shows a machine in v1’s shape: numbers, region id, publicIpType, autoShutdown*, no events', async () => {
    const api = await startV1();
    const response = await api.call('GET', '/machines/ps-ivy-ready', { key: KEY.ivy });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: 'ps-ivy-ready',
      name: 'ivy-gpu',
      state: 'ready',
      machineType: 'P4000',
      agentType: 'WindowsDesktop',
      region: 'ca1',
      ram: 30 * GIB,
      storageTotal: 250 * GIB,
      accelerators: [{ name: 'Quadro P4000', count: 1, memory: null }],
      usageRate: 0.51,
      storageRate: 10,
      publicIpType: 'none',
      autoShutdownEnabled: true,
      autoShutdownTimeout: 1,
      autoShutdownForce: false,
      dtDeleted: null,
    });
    expect(typeof response.body.storageUsed).toBe('number');
    expect(response.body).not.toHaveProperty('events');
    expect(response.body).not.toHaveProperty('userId');
    expect(response.body).not.toHaveProperty('gpu');
  });

  it('creates with v1’s body and answers 200 with data and the create event, which completes', async () => {
    const api = await startV1();
    const response = await api.call('POST', '/machines', {
      key: KEY.alma,
      body: { ...CREATE, publicIpType: 'dynamic', autoShutdownEnabled: true, autoShutdownTimeout: 3 },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      name: 'render-1',
      state: 'provisioning',
      region: 'ny2',
      publicIpType: 'dynamic',
      autoShutdownTimeout: 3,
    });
    expect(response.body.event).toMatchObject({ name: 'create', state: 'in progress', error: null });
    api.clock.advance(TRANSITION_MS);
    const event = await api.call('GET', `/machine-events/${response.body.event.id}`, { key: KEY.alma });
    expect(event.body).toMatchObject({ state: 'done', machineId: response.body.data.id });
    expect(event.body.dtFinished).not.toBeNull();
    api.clock.advance(TRANSITION_MS);
    const machine = await api.call('GET', `/machines/${response.body.data.id}`, { key: KEY.alma });
    expect(machine.body.state).toBe('serviceready');
    expect(machine.body.publicIp).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('applies the world’s create rules: disk sizes above 0, templates, region ids, GPU availability', async () => {
    const api = await startV1();
    const tries = [
      { diskSize: 0 },
      { diskSize: -50 },
      { diskSize: '100' },
      { templateId: 't-nope' },
      { region: 'mars1' },
      { machineType: 'P6000', templateId: 't-win', region: 'ny2' },
    ];
    for (const change of tries) {
      const response = await api.call('POST', '/machines', { key: KEY.alma, body: { ...CREATE, ...change } });
      expect(response.status, JSON.stringify(change)).toBe(400);
    }
    const full = await api.call('POST', '/machines', {
      key: KEY.alma,
      body: { ...CREATE, region: 'East Coast (NY2)' },
    });
    expect(full.status).toBe(200);
  });

  it('creates a disk of any size above 0, as the OpenAPI types diskSize, priced at 2 TB’s rate per GB', async () => {
    const api = await startV1();
    const response = await api.call('POST', '/machines', {
      key: KEY.alma,
      body: { ...CREATE, diskSize: 77 },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ storageTotal: 77 * 1024 ** 3, storageRate: 3.08 });
  });

  it('takes its catalog from the template: a type only v1 sells is created where the template offers it', async () => {
    const api = await startV1();
    const templates = await api.call('GET', '/os-templates', { key: KEY.alma });
    const offers = (id: string) =>
      (
        templates.body.items as {
          id: string;
          availableMachineTypes: { machineTypeLabel: string; isAvailable: boolean }[];
        }[]
      )
        .find((template) => template.id === id)
        ?.availableMachineTypes.filter((offer) => offer.isAvailable)
        .map((offer) => offer.machineTypeLabel);
    expect(offers('t-ubuntu')).toContain('A100');
    expect(offers('t-win')).not.toContain('A100');

    const created = await api.call('POST', '/machines', {
      key: KEY.alma,
      body: { ...CREATE, name: 'ampere-1', machineType: 'A100' },
    });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'ampere-1', machineType: 'A100' });

    const refused = await api.call('POST', '/machines', {
      key: KEY.alma,
      body: { ...CREATE, name: 'ampere-win', machineType: 'A100', templateId: 't-win' },
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      `template Windows 10 (t-win) is not available on A100; it is available on ${offers('t-win')?.join(', ')}`,
    );
    const unknown = await api.call('POST', '/machines', {
      key: KEY.alma,
      body: { ...CREATE, name: 'nope', machineType: 'Z9' },
    });
    expect(unknown.status).toBe(400);
  });

  it('updates name, auto shutdown and public IP type; refuses what it cannot model', async () => {
    const api = await startV1();
    const response = await api.call('PUT', '/machines/ps-milo-up', {
      key: KEY.alma,
      body: { name: 'renamed', autoShutdownEnabled: true, autoShutdownTimeout: 2, publicIpType: 'static' },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({
      name: 'renamed',
      autoShutdownEnabled: true,
      autoShutdownTimeout: 2,
      publicIpType: 'static',
    });
    const resize = await api.call('PUT', '/machines/ps-milo-up', { key: KEY.alma, body: { diskSize: 2000 } });
    expect(resize.status).toBe(400);
    const member = await api.call('PUT', '/machines/ps-nora-off', { key: KEY.milo, body: { name: 'x' } });
    expect(member.status).toBe(403);
  });

  it('deletes: answers the machine and a done event, then the machine is gone but its events remain', async () => {
    const api = await startV1();
    const response = await api.call('DELETE', '/machines/ps-milo-up', { key: KEY.milo });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe('ps-milo-up');
    expect(response.body.event).toMatchObject({ name: 'deactivate', state: 'done', machineId: 'ps-milo-up' });
    expect((await api.call('GET', '/machines/ps-milo-up', { key: KEY.milo })).status).toBe(404);
    const event = await api.call('GET', `/machine-events/${response.body.event.id}`, { key: KEY.milo });
    expect(event.status).toBe(200);
  });
});

describe('v1 power actions', () => {
  it('starts with PATCH {} and answers the start event, which ends done when the machine is up', async () => {
    const api = await startV1();
    const response = await api.call('PATCH', '/machines/ps-ivy-off/start', { key: KEY.ivy, body: {} });
    expect(response.status).toBe(200);
    expect(response.body.data.state).toBe('starting');
    expect(response.body.event).toMatchObject({
      name: 'start',
      state: 'in progress',
      machineId: 'ps-ivy-off',
    });
    expect(response.body.event.dtStarted).not.toBeNull();
    api.clock.advance(TRANSITION_MS);
    const event = await api.call('GET', `/machine-events/${response.body.event.id}`, { key: KEY.ivy });
    expect(event.body).toMatchObject({ state: 'done', error: null });
  });

  it('refuses a start while starting with 400 "currently starting", and makes no event for it', async () => {
    const api = await startV1();
    await api.call('PATCH', '/machines/ps-ivy-off/start', { key: KEY.ivy, body: {} });
    const again = await api.call('PATCH', '/machines/ps-ivy-off/start', { key: KEY.ivy, body: {} });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining('currently starting'),
    });
    const events = await api.all('/machine-events', KEY.ivy, { machineId: 'ps-ivy-off' });
    expect(events.items.filter((event) => event.name === 'start')).toHaveLength(1);
  });

  it('refuses a start of a running machine and a stop of an off machine with 400', async () => {
    const api = await startV1();
    const start = await api.call('PATCH', '/machines/ps-ivy-ready/start', { key: KEY.ivy, body: {} });
    expect(start.status).toBe(400);
    expect(start.body.message).toContain('already running');
    const stop = await api.call('PATCH', '/machines/ps-ivy-off/stop', { key: KEY.ivy, body: {} });
    expect(stop.status).toBe(400);
    expect(stop.body.message).toContain('already off');
  });

  it('reports an injected failure in the event’s error, and the machine ends off', async () => {
    const api = await startV1();
    api.emulator.state.failNextOperation('ps-ivy-off', 'Injected: host lost');
    const response = await api.call('PATCH', '/machines/ps-ivy-off/start', { key: KEY.ivy, body: {} });
    api.clock.advance(TRANSITION_MS);
    const event = await api.call('GET', `/machine-events/${response.body.event.id}`, { key: KEY.ivy });
    expect(event.body).toMatchObject({ state: 'error', error: 'Injected: host lost' });
    expect((await api.call('GET', '/machines/ps-ivy-off', { key: KEY.ivy })).body.state).toBe('off');
  });

  it('marks operations queued behind a failed one as cancelled', async () => {
    const api = await startV1();
    api.emulator.state.failNextOperation('ps-ivy-ready');
    await api.call('PATCH', '/machines/ps-ivy-ready/restart', { key: KEY.ivy, body: {} });
    // The world knows the restart will leave the machine off, so a start is what can queue behind it.
    const queued = await api.call('PATCH', '/machines/ps-ivy-ready/start', { key: KEY.ivy, body: {} });
    expect(queued.body.event.state).toBe('new');
    api.clock.advance(TRANSITION_MS * 2);
    const event = await api.call('GET', `/machine-events/${queued.body.event.id}`, { key: KEY.ivy });
    expect(event.body.state).toBe('cancelled');
  });

  it('fails a create through its event when provisioning is made to fail', async () => {
    const api = await startV1();
    api.emulator.state.failNextCreate('Injected: no capacity');
    const response = await api.call('POST', '/machines', { key: KEY.alma, body: CREATE });
    api.clock.advance(TRANSITION_MS);
    const event = await api.call('GET', `/machine-events/${response.body.event.id}`, { key: KEY.alma });
    expect(event.body).toMatchObject({ name: 'create', state: 'error', error: 'Injected: no capacity' });
  });

  it('refuses a body other than {} and a start by someone other than the owner', async () => {
    const api = await startV1();
    const body = await api.call('PATCH', '/machines/ps-ivy-off/start', {
      key: KEY.ivy,
      body: { force: true },
    });
    expect(body.status).toBe(400);
    const admin = await api.call('PATCH', '/machines/ps-milo-off/start', { key: KEY.alma, body: {} });
    expect(admin.status).toBe(403);
  });
});

describe('v1 machine events', () => {
  it('lists a machine’s events across pages, newest first when asked', async () => {
    const api = await startV1();
    for (let n = 0; n < 3; n += 1) {
      api.clock.advance(TRANSITION_MS * 2);
      await api.call('PATCH', '/machines/ps-ivy-ready/restart', { key: KEY.ivy, body: {} });
      api.clock.advance(TRANSITION_MS * 2);
    }
    const { items, pages } = await api.all('/machine-events', KEY.ivy, {
      machineId: 'ps-ivy-ready',
      limit: 2,
      order: 'desc',
    });
    expect(pages.length).toBeGreaterThan(2);
    expect(items.map((event) => event.name).slice(0, 3)).toEqual(['restart', 'restart', 'restart']);
    // The seeded create and start happened in the same millisecond: their order is not defined.
    expect(
      items
        .map((event) => event.name)
        .slice(3)
        .sort(),
    ).toEqual(['create', 'start']);
    expect(items.every((event) => event.machineId === 'ps-ivy-ready')).toBe(true);
  });

  it('hides other accounts’ events', async () => {
    const api = await startV1();
    const response = await api.call('PATCH', '/machines/ps-otto-off/start', { key: KEY.otto, body: {} });
    expect(
      (await api.call('GET', `/machine-events/${response.body.event.id}`, { key: KEY.ivy })).status,
    ).toBe(404);
    const { items } = await api.all('/machine-events', KEY.ivy, { machineId: 'ps-otto-off' });
    expect(items).toEqual([]);
  });
});
