import { describe, expect, it } from 'vitest';
import { type Harness, startHarness, TRANSITION_MS } from './harness.js';
import { KEY } from './test-seed.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function show(api: Harness, key: string, machineId: string) {
  const response = await api.get('/machines/getMachinePublic', { key, query: { machineId } });
  expect(response.status).toBe(200);
  return response.body;
}

async function stateOf(api: Harness, key: string, machineId: string): Promise<string> {
  return (await show(api, key, machineId)).state;
}

const eventSummary = (machine: { events: Array<{ name: string; state: string }> }) =>
  machine.events.map((event) => `${event.name}:${event.state}`);

async function create(api: Harness, body: Record<string, unknown> = {}) {
  const response = await api.post('/machines/createSingleMachinePublic', {
    key: KEY.ivy,
    body: {
      region: 'East Coast (NY2)',
      machineType: 'C4',
      size: 50,
      billingType: 'hourly',
      machineName: 'lifecycle',
      templateId: 't-ubuntu',
      ...body,
    },
  });
  expect(response.status).toBe(200);
  return response.body.id as string;
}

describe('create', () => {
  it('goes provisioning -> starting -> serviceready for a headless Linux machine', async () => {
    const api = await startHarness();
    const id = await create(api);
    expect(await stateOf(api, KEY.ivy, id)).toBe('provisioning');
    api.clock.advance(TRANSITION_MS - 1);
    expect(await stateOf(api, KEY.ivy, id)).toBe('provisioning');
    api.clock.advance(1);
    expect(await stateOf(api, KEY.ivy, id)).toBe('starting');
    api.clock.advance(TRANSITION_MS);
    const machine = await show(api, KEY.ivy, id);
    expect(machine.state).toBe('serviceready');
    expect(eventSummary(machine)).toEqual(['start:done', 'create:done']);
  });

  it('ends in ready for a desktop template', async () => {
    const api = await startHarness();
    const id = await create(api, { templateId: 't-desktop', machineType: 'P4000' });
    api.clock.advance(2 * TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, id)).toBe('ready');
  });

  it('stays off after provisioning when startOnCreate is false', async () => {
    const api = await startHarness();
    const id = await create(api, { startOnCreate: false });
    api.clock.advance(5 * TRANSITION_MS);
    const machine = await show(api, KEY.ivy, id);
    expect(machine.state).toBe('off');
    expect(eventSummary(machine)).toEqual(['create:done']);
  });

  it('records events newest first, with a UUID handle and ISO timestamps', async () => {
    const api = await startHarness();
    const created = api.clock.now();
    const id = await create(api);
    const during = await show(api, KEY.ivy, id);
    expect(eventSummary(during)).toEqual(['start:new', 'create:in progress']);
    expect(during.events[1]).toEqual({
      name: 'create',
      state: 'in progress',
      errorMsg: '',
      handle: expect.stringMatching(UUID),
      dtCreated: new Date(created).toISOString(),
      dtModified: new Date(created).toISOString(),
      dtFinished: null,
    });
    api.clock.advance(10 * TRANSITION_MS);
    const [start, creation] = (await show(api, KEY.ivy, id)).events;
    expect(creation.dtFinished).toBe(new Date(created + TRANSITION_MS).toISOString());
    expect(start.dtFinished).toBe(new Date(created + 2 * TRANSITION_MS).toISOString());
  });
});

describe('start and stop', () => {
  it('starts an off machine: starting, then its booted state', async () => {
    const api = await startHarness();
    const started = await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    expect(started.status).toBe(200);
    expect(started.body.state).toBe('starting');
    api.clock.advance(TRANSITION_MS);
    const machine = await show(api, KEY.ivy, 'ps-ivy-off');
    expect(machine.state).toBe('serviceready');
    expect(machine.events[0]).toMatchObject({ name: 'start', state: 'done' });
  });

  it('treats start as a no-op while starting and once started, recording no event', async () => {
    const api = await startHarness();
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    const again = await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('serviceready');
    expect(eventSummary(await show(api, KEY.ivy, 'ps-ivy-off'))).toEqual(['start:done', 'create:done']);
  });

  it('stops a running machine: stopping, then off, answering 204 with an empty body', async () => {
    const api = await startHarness();
    const stopped = await api.post('/machines/ps-ivy-ready/stop', { key: KEY.ivy });
    expect(stopped.status).toBe(204);
    expect(stopped.text).toBe('');
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-ready')).toBe('stopping');
    api.clock.advance(TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-ready')).toBe('off');
  });

  it('treats stop as a no-op when the machine is off', async () => {
    const api = await startHarness();
    expect((await api.post('/machines/ps-ivy-off/stop', { key: KEY.ivy })).status).toBe(204);
    const machine = await show(api, KEY.ivy, 'ps-ivy-off');
    expect(machine.state).toBe('off');
    expect(eventSummary(machine)).toEqual(['create:done']);
  });

  it('runs a stop asked for while starting after the start completes', async () => {
    const api = await startHarness();
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    await api.post('/machines/ps-ivy-off/stop', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-off')).toBe('stopping');
    api.clock.advance(TRANSITION_MS);
    const machine = await show(api, KEY.ivy, 'ps-ivy-off');
    expect(machine.state).toBe('off');
    expect(eventSummary(machine)).toEqual(['stop:done', 'start:done', 'create:done']);
  });

  it('attaches a dynamic public IP on start and releases it on stop', async () => {
    const api = await startHarness();
    await api.post('/machines/ps-ivy-off/updateMachinePublic', {
      key: KEY.ivy,
      body: { dynamicPublicIp: true },
    });
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    expect((await show(api, KEY.ivy, 'ps-ivy-off')).publicIpAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    await api.post('/machines/ps-ivy-off/stop', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    expect((await show(api, KEY.ivy, 'ps-ivy-off')).publicIpAddress).toBeNull();
  });
});

describe('restart', () => {
  it('goes restarting -> starting -> ready', async () => {
    const api = await startHarness();
    const restarted = await api.post('/machines/ps-ivy-ready/restart', { key: KEY.ivy });
    expect(restarted.status).toBe(200);
    expect(restarted.body.state).toBe('restarting');
    api.clock.advance(TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-ready')).toBe('starting');
    api.clock.advance(TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-ready')).toBe('ready');
  });

  it('requests another restart when asked while restarting', async () => {
    const api = await startHarness();
    await api.post('/machines/ps-ivy-ready/restart', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS / 2);
    await api.post('/machines/ps-ivy-ready/restart', { key: KEY.ivy });
    expect(eventSummary(await show(api, KEY.ivy, 'ps-ivy-ready')).slice(0, 2)).toEqual([
      'restart:new',
      'restart:in progress',
    ]);
    api.clock.advance(1.5 * TRANSITION_MS);
    const between = await show(api, KEY.ivy, 'ps-ivy-ready');
    expect(between.state).toBe('restarting');
    expect(eventSummary(between).slice(0, 2)).toEqual(['restart:in progress', 'restart:done']);
    api.clock.advance(2 * TRANSITION_MS);
    const after = await show(api, KEY.ivy, 'ps-ivy-ready');
    expect(after.state).toBe('ready');
    expect(eventSummary(after).slice(0, 2)).toEqual(['restart:done', 'restart:done']);
  });

  it('boots an off machine', async () => {
    const api = await startHarness();
    await api.post('/machines/ps-ivy-off/restart', { key: KEY.ivy });
    api.clock.advance(2 * TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-off')).toBe('serviceready');
  });
});

describe('destroy', () => {
  it('removes the machine from lists at once; show and operations then answer 404', async () => {
    const api = await startHarness();
    const destroyed = await api.post('/machines/ps-ivy-ready/destroyMachine', {
      key: KEY.ivy,
      body: { releasePublicIp: true },
    });
    expect(destroyed.status).toBe(204);
    expect(destroyed.text).toBe('');
    const list = await api.get('/machines/getMachines', { key: KEY.ivy });
    expect(list.body.map((machine: { id: string }) => machine.id)).toEqual(['ps-ivy-off']);
    api.clock.advance(TRANSITION_MS);
    expect(
      (await api.get('/machines/getMachinePublic', { key: KEY.ivy, query: { machineId: 'ps-ivy-ready' } }))
        .status,
    ).toBe(404);
    expect((await api.post('/machines/ps-ivy-ready/start', { key: KEY.ivy })).status).toBe(404);
  });

  it('refuses a releasePublicIp that is not a boolean', async () => {
    const api = await startHarness();
    const response = await api.post('/machines/ps-ivy-ready/destroyMachine', {
      key: KEY.ivy,
      query: { releasePublicIp: 'yes' },
    });
    expect(response.status).toBe(400);
  });
});

describe('injected operation failures', () => {
  it('ends the next operation in error with a message and leaves the machine off', async () => {
    const api = await startHarness();
    api.emulator.state.failNextOperation('ps-ivy-off', 'GPU host lost');
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-off')).toBe('starting');
    api.clock.advance(TRANSITION_MS);
    const failed = await show(api, KEY.ivy, 'ps-ivy-off');
    expect(failed.state).toBe('off');
    expect(failed.events[0]).toMatchObject({ name: 'start', state: 'error', errorMsg: 'GPU host lost' });
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, 'ps-ivy-off')).toBe('serviceready');
  });

  it('turns a running machine off when its restart fails', async () => {
    const api = await startHarness();
    api.emulator.state.failNextOperation('ps-ivy-ready');
    await api.post('/machines/ps-ivy-ready/restart', { key: KEY.ivy });
    api.clock.advance(2 * TRANSITION_MS);
    const machine = await show(api, KEY.ivy, 'ps-ivy-ready');
    expect(machine.state).toBe('off');
    expect(machine.events[0].state).toBe('error');
    expect(machine.events[0].errorMsg).not.toBe('');
  });

  it('fails a create and cancels the start queued behind it', async () => {
    const api = await startHarness();
    api.emulator.state.failNextCreate('No capacity in NY2');
    const id = await create(api);
    api.clock.advance(TRANSITION_MS);
    const machine = await show(api, KEY.ivy, id);
    expect(machine.state).toBe('off');
    expect(machine.events).toEqual([
      expect.objectContaining({
        name: 'start',
        state: 'error',
        errorMsg: expect.stringContaining('Cancelled'),
      }),
      expect.objectContaining({ name: 'create', state: 'error', errorMsg: 'No capacity in NY2' }),
    ]);
    api.clock.advance(10 * TRANSITION_MS);
    expect(await stateOf(api, KEY.ivy, id)).toBe('off');
  });

  it('fails only the next operation: the one after it succeeds', async () => {
    const api = await startHarness();
    api.emulator.state.failNextOperation('ps-ivy-ready');
    await api.post('/machines/ps-ivy-ready/stop', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    expect(eventSummary(await show(api, KEY.ivy, 'ps-ivy-ready'))[0]).toBe('stop:error');
    await api.post('/machines/ps-ivy-ready/start', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    const machine = await show(api, KEY.ivy, 'ps-ivy-ready');
    expect(machine.state).toBe('ready');
    expect(eventSummary(machine)[0]).toBe('start:done');
  });
});
