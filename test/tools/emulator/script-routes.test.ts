import { describe, expect, it } from 'vitest';
import { type Harness, nestedError, startHarness, TRANSITION_MS } from './harness.js';
import { KEY } from './test-seed.js';

async function createScript(api: Harness, key: string, body: Record<string, unknown>) {
  return api.post('/scripts/createScript', {
    key,
    body: { scriptName: 'setup', scriptText: 'echo hi', ...body },
  });
}

describe('createScript', () => {
  it('creates a team script owned by the team, without machines in the answer', async () => {
    const api = await startHarness();
    const response = await createScript(api, KEY.milo, { scriptDescription: 'says hi' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.any(String),
      ownerType: 'team',
      ownerId: 'te-acme',
      name: 'setup',
      description: 'says hi',
      dtCreated: '2024-05-15T09:00:00.000Z',
      isEnabled: true,
      runOnce: false,
    });
  });

  it('creates a user script on an individual account', async () => {
    const api = await startHarness();
    const response = await createScript(api, KEY.ivy, { runOnce: true, isEnabled: false });
    expect(response.body).toMatchObject({
      ownerType: 'user',
      ownerId: 'u-ivy',
      runOnce: true,
      isEnabled: false,
    });
  });

  it('accepts exactly 16 KB of UTF-8 and refuses one byte more', async () => {
    const api = await startHarness();
    const atLimit = `${'é'.repeat(8191)}ab`;
    expect(Buffer.byteLength(atLimit)).toBe(16 * 1024);
    expect((await createScript(api, KEY.ivy, { scriptText: atLimit })).status).toBe(200);
    const over = await createScript(api, KEY.ivy, {
      scriptName: 'too-big',
      scriptText: `${'é'.repeat(8192)}a`,
    });
    expect(over.status).toBe(400);
    expect(over.body).toEqual(nestedError(400));
    expect(over.body.error.message).toMatch(/16385 bytes/);
  });

  it('takes the script data from scriptFile as well', async () => {
    const api = await startHarness();
    const created = await api.post('/scripts/createScript', {
      key: KEY.ivy,
      body: { scriptName: 'from-file', scriptFile: '#!/bin/sh\necho file\n' },
    });
    const text = await api.get('/scripts/getScriptText', {
      key: KEY.ivy,
      query: { scriptId: created.body.id },
    });
    expect(text.body).toBe('#!/bin/sh\necho file\n');
  });

  it('refuses a script with neither scriptText nor scriptFile (400)', async () => {
    const api = await startHarness();
    const response = await api.post('/scripts/createScript', { key: KEY.ivy, body: { scriptName: 'empty' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(nestedError(400));
    expect(response.body.error.message).toMatch(/scriptText or scriptFile/);
  });

  it('refuses a second script with the same name in the account (409)', async () => {
    const api = await startHarness();
    await createScript(api, KEY.milo, {});
    const duplicate = await createScript(api, KEY.alma, {});
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual(nestedError(409));
    expect((await createScript(api, KEY.otto, {})).status).toBe(200);
  });

  it('assigns the script to a machine, which runs it when it boots', async () => {
    const api = await startHarness();
    const created = await createScript(api, KEY.ivy, { machineId: 'ps-ivy-off' });
    const shown = await api.get('/machines/getMachinePublic', {
      key: KEY.ivy,
      query: { machineId: 'ps-ivy-off' },
    });
    expect(shown.body.scriptId).toBe(created.body.id);
    expect(shown.body.dtLastRun).toBeNull();
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    const script = await api.get('/scripts/getScript', {
      key: KEY.ivy,
      query: { scriptId: created.body.id },
    });
    expect(script.body.machines).toEqual([
      { machineId: 'ps-ivy-off', dtLastRun: '2024-05-15T09:00:01.000Z' },
    ]);
  });

  it('runs a runOnce script on the first boot only', async () => {
    const api = await startHarness();
    await createScript(api, KEY.ivy, { machineId: 'ps-ivy-off', runOnce: true });
    const lastRun = async () =>
      (await api.get('/machines/getMachinePublic', { key: KEY.ivy, query: { machineId: 'ps-ivy-off' } })).body
        .dtLastRun;
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    api.clock.advance(TRANSITION_MS);
    const first = await lastRun();
    expect(first).toBe('2024-05-15T09:00:01.000Z');
    await api.post('/machines/ps-ivy-off/restart', { key: KEY.ivy });
    api.clock.advance(2 * TRANSITION_MS);
    expect(await lastRun()).toBe(first);
  });

  it("forbids assigning a script to a teammate's machine, and answers 404 for another account's", async () => {
    const api = await startHarness();
    expect((await createScript(api, KEY.nora, { machineId: 'ps-milo-off' })).status).toBe(403);
    expect((await createScript(api, KEY.otto, { machineId: 'ps-milo-off' })).status).toBe(404);
  });
});

describe('reading scripts', () => {
  it('shows machines as an empty array when the script is unassigned', async () => {
    const api = await startHarness();
    const created = await createScript(api, KEY.ivy, {});
    const shown = await api.get('/scripts/getScript', { key: KEY.ivy, query: { scriptId: created.body.id } });
    expect(shown.body).toEqual({ ...created.body, machines: [] });
  });

  it('answers the text as a JSON string', async () => {
    const api = await startHarness();
    const created = await createScript(api, KEY.ivy, { scriptText: 'line "one"\nline two' });
    const text = await api.get('/scripts/getScriptText', {
      key: KEY.ivy,
      query: { scriptId: created.body.id },
    });
    expect(text.text).toBe(JSON.stringify('line "one"\nline two'));
  });

  it('lists the account’s scripts and filters them, booleans parsed', async () => {
    const api = await startHarness();
    await createScript(api, KEY.milo, { scriptName: 'a', runOnce: true });
    await createScript(api, KEY.alma, { scriptName: 'b', isEnabled: false });
    await createScript(api, KEY.otto, { scriptName: 'c' });
    const names = async (query: Record<string, string | boolean> = {}) =>
      (await api.get('/scripts/getScripts', { key: KEY.nora, query })).body.map(
        (script: { name: string }) => script.name,
      );
    expect(await names()).toEqual(['a', 'b']);
    expect(await names({ runOnce: true })).toEqual(['a']);
    expect(await names({ isEnabled: false })).toEqual(['b']);
    expect(await names({ ownerType: 'team', name: 'b' })).toEqual(['b']);
    expect(
      (await api.get('/scripts/getScripts', { key: KEY.nora, query: { runOnce: 'sometimes' } })).status,
    ).toBe(400);
  });

  it("answers 404 for another account's script", async () => {
    const api = await startHarness();
    const created = await createScript(api, KEY.ivy, {});
    const response = await api.get('/scripts/getScript', {
      key: KEY.otto,
      query: { scriptId: created.body.id },
    });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(nestedError(404));
  });
});

describe('destroying a script', () => {
  it('answers 204 and disassociates it from every machine at once', async () => {
    const api = await startHarness();
    const created = await createScript(api, KEY.milo, { machineId: 'ps-milo-off' });
    const second = await api.post('/machines/createSingleMachinePublic', {
      key: KEY.alma,
      body: {
        region: 'East Coast (NY2)',
        machineType: 'C4',
        size: 50,
        billingType: 'hourly',
        machineName: 'scripted',
        templateId: 't-ubuntu',
        teamId: 'te-acme',
        userId: 'u-nora',
        scriptId: created.body.id,
      },
    });
    const shown = await api.get('/scripts/getScript', {
      key: KEY.milo,
      query: { scriptId: created.body.id },
    });
    expect(shown.body.machines.map((machine: { machineId: string }) => machine.machineId)).toEqual([
      'ps-milo-off',
      second.body.id,
    ]);
    const destroyed = await api.post(`/scripts/${created.body.id}/destroy`, { key: KEY.milo });
    expect(destroyed.status).toBe(204);
    expect(destroyed.text).toBe('');
    expect(api.emulator.state.machine('ps-milo-off')?.scriptId).toBeNull();
    expect(api.emulator.state.machine(second.body.id)?.scriptId).toBeNull();
    expect(
      (await api.get('/scripts/getScript', { key: KEY.milo, query: { scriptId: created.body.id } })).status,
    ).toBe(404);
  });

  it("forbids a member to destroy a teammate's script but lets the team administrator", async () => {
    const api = await startHarness();
    const created = await createScript(api, KEY.milo, {});
    expect((await api.post(`/scripts/${created.body.id}/destroy`, { key: KEY.nora })).status).toBe(403);
    expect((await api.post(`/scripts/${created.body.id}/destroy`, { key: KEY.alma })).status).toBe(204);
  });
});
