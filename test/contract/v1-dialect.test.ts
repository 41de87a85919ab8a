// The client's v1 dialect against the emulator's /v1 routes, over the same world the contract tests
// use: every operation v1 has, its cursor pages, its error bodies, events ending in error, and the
// retry rules (never a create). And with a /v1 base URL, no request is a contract request.
import { describe, expect, it } from 'vitest';
import {
  PaperspaceAuthenticationError,
  PaperspaceNotFoundError,
  PaperspacePermissionError,
  PaperspaceServerError,
} from '../../src/paperspace/errors.js';
import { MachineOperationFailedError } from '../../src/paperspace/wait-errors.js';
import { startRecordingProxy } from '../support/recording-proxy.js';
import { rejectionOf, startContractWorld, TRANSITION_MS } from './harness.js';

const ADA_CPU_BOX = 'psada002'; // Ubuntu server, C4, off, East Coast

const newMachine = {
  region: 'East Coast (NY2)',
  machineType: 'C4',
  size: 50,
  machineName: 'v1-box',
} as const;

describe('the v1 dialect against the emulator', () => {
  it('follows cursors past several short pages to every machine, and filters state itself', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    world.state.addMachines(300, { owner: 'u1ada', state: 'off', namePrefix: 'bulk' });
    const mark = world.mark();
    const machines = await world.ada.machines.list();
    const pages = world.requestsSince(mark).filter((entry) => entry.path === '/v1/machines');
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const ids = machines.map((machine) => machine.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(['psada001', 'psada002', 'psada003']));
    expect(machines.filter((machine) => machine.name.startsWith('bulk-'))).toHaveLength(300);
    const ready = await world.ada.machines.list({ state: 'ready' });
    expect(ready.map((machine) => machine.id)).toEqual(['psada001']);
  });

  it('starts a machine with PATCH, treats a repeated start as done, and waits until it is up', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const first = await world.ada.machines.start(ADA_CPU_BOX);
    // The start names its event, which can be followed by id; the refused repeat names none.
    expect(first.eventId).toEqual(expect.any(String));
    expect(await world.ada.machines.event(first.eventId ?? '')).toMatchObject({ name: 'start' });
    expect(await world.ada.machines.start(ADA_CPU_BOX)).toEqual({ eventId: null });
    // A headless Ubuntu server is as up as it gets at serviceready.
    const ready = await world.ada.machines.waitForState(ADA_CPU_BOX, 'serviceready', {
      timeoutMs: 10 * TRANSITION_MS,
      intervalMs: TRANSITION_MS / 2,
    });
    expect(ready.state).toBe('serviceready');
    expect(ready.events.some((event) => event.name === 'start' && event.state === 'done')).toBe(true);
    const starts = world
      .requestsSince(0)
      .filter((entry) => entry.path === `/v1/machines/${ADA_CPU_BOX}/start`);
    // v1 refuses the second start (400, "currently starting"); the bot answers it as the no-op it is.
    expect(starts.map((entry) => `${entry.method} ${entry.status}`)).toEqual(['PATCH 200', 'PATCH 400']);
  });

  it('learns that a start failed from the error of its event', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    world.state.failNextOperation(ADA_CPU_BOX, 'No capacity for C4 in NY2');
    const { eventId } = await world.ada.machines.start(ADA_CPU_BOX);
    world.clock.advance(10 * TRANSITION_MS);
    expect(await world.ada.machines.event(eventId ?? '')).toMatchObject({
      state: 'error',
      errorMsg: 'No capacity for C4 in NY2',
    });
    const failure = await rejectionOf(
      world.ada.machines.waitForState(ADA_CPU_BOX, 'ready', { timeoutMs: 60_000, intervalMs: TRANSITION_MS }),
    );
    expect(failure).toBeInstanceOf(MachineOperationFailedError);
    expect(failure.message).toContain('No capacity for C4 in NY2');
  });

  it('creates, shows, updates and destroys a machine, creating it exactly once even when Paperspace fails', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    // v1 lists newest (or by name, last) first: the Ubuntu template, which takes a C4, is asked by name.
    const template = (await world.ada.templates.list()).find((listed) => /ubuntu/i.test(listed.name));
    if (!template) throw new Error('the demo seed has an Ubuntu template');
    const created = await world.ada.machines.create({ ...newMachine, templateId: template.id });
    expect(created.name).toBe('v1-box');
    await world.ada.machines.update(created.id, { machineName: 'v1-box-renamed', shutdownTimeoutInHours: 3 });
    const shown = await world.ada.machines.show(created.id);
    expect(shown).toMatchObject({ name: 'v1-box-renamed', shutdownTimeoutInHours: 3 });
    await world.ada.machines.destroy(created.id);
    await expect(world.ada.machines.list({ machineId: created.id })).resolves.toEqual([]);

    world.state.failNextRequests({ count: 1, status: 500, path: '/v1/machines' });
    const mark = world.mark();
    const failed = await rejectionOf(
      world.ada.machines.create({ ...newMachine, machineName: 'once', templateId: template.id }),
    );
    expect(failed).toBeInstanceOf(PaperspaceServerError);
    expect(world.requestsSince(mark).filter((entry) => entry.method === 'POST')).toHaveLength(1);
  });

  it('retries a list after 429 and 500, waiting as told', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    world.state.failNextRequests({ count: 1, status: 429, path: '/v1/machines' });
    world.state.failNextRequests({ count: 1, status: 500, path: '/v1/machines' });
    const machines = await world.ada.machines.list();
    expect(machines.length).toBeGreaterThan(0);
    expect(world.sleeps.length).toBeGreaterThanOrEqual(1);
  });

  it('maps 401, 403 and 404 to the errors the bot explains', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const stranger = world.client({ apiKey: 'not-a-key' });
    expect(await rejectionOf(stranger.machines.list())).toBeInstanceOf(PaperspaceAuthenticationError);
    expect(await rejectionOf(world.ada.machines.show('psnothere'))).toBeInstanceOf(PaperspaceNotFoundError);
    // Sam is a team member, not an administrator: a team machine he does not own is not his to destroy.
    const mayas = (await world.maya.machines.list()).find((machine) => machine.name === 'maya-trainer');
    if (!mayas) throw new Error('the demo team has maya-trainer');
    const refused = await rejectionOf(world.sam.machines.destroy(mayas.id));
    expect([PaperspacePermissionError, PaperspaceNotFoundError].some((type) => refused instanceof type)).toBe(
      true,
    );
  });

  it("says who a key belongs to, lists the team's users, scripts, networks and drives", async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    await expect(world.maya.account.whoAmI()).resolves.toMatchObject({ userId: 'u1maya', isAdmin: true });
    await expect(world.sam.account.whoAmI()).resolves.toMatchObject({ userId: 'u1sam', isAdmin: false });
    const users = await world.maya.users.list();
    expect(users.map((user) => user.id).sort()).toEqual(['u1maya', 'u1sam']);
    expect(await world.maya.networks.list()).not.toHaveLength(0);
    const script = await world.maya.scripts.create({ scriptName: 'hello', scriptText: 'echo hello' });
    expect((await world.maya.scripts.show(script.id)).name).toBe('hello');
    await world.maya.scripts.destroy(script.id);
    expect(Array.isArray(await world.maya.sharedDrives.list())).toBe(true);
  });

  it('grants and revokes access to a team machine through accessors', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    // Maya's own machine: Sam's own would refuse him as an accessor, since he has access already.
    const machine = (await world.maya.machines.list()).find((listed) => listed.name === 'maya-trainer');
    if (!machine) throw new Error('the demo team has maya-trainer');
    await world.maya.machines.setAccess(machine.id, { userId: 'u1sam', enableAccess: true });
    await world.maya.machines.setAccess(machine.id, { userId: 'u1sam', enableAccess: false });
    const calls = world
      .requestsSince(0)
      .filter((entry) => entry.path.startsWith(`/v1/machines/${machine.id}/accessors`));
    expect(calls.map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 200', 'DELETE 200']);
  });

  it("lists templates as v1's OS templates plus the team's custom ones, from both lists", async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const mark = world.mark();
    const team = (await world.maya.templates.list()).map((template) => template.id);
    expect(team).toEqual(expect.arrayContaining(['t04azgph', 'tobitml1']));
    const paths = world.requestsSince(mark).map((entry) => entry.path);
    expect(paths).toEqual(expect.arrayContaining(['/v1/os-templates', '/v1/custom-templates']));
    // Another account's custom template is not listed.
    expect((await world.ada.templates.list()).map((template) => template.id)).not.toContain('tobitml1');
  });

  it('lists accessors, lets an accessor start the machine, and refuses them once removed', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    expect(world.maya.capabilities).toMatchObject({ accessorRights: 'power', listAccessors: true });
    expect(await world.maya.machines.accessors('psorb002')).toEqual([]);
    expect(await rejectionOf(world.sam.machines.start('psorb002'))).toBeInstanceOf(PaperspacePermissionError);

    await world.maya.machines.setAccess('psorb002', { userId: 'u1sam', enableAccess: true });
    expect(await world.maya.machines.accessors('psorb002')).toEqual(['u1sam']);
    await world.sam.machines.start('psorb002');
    expect(world.state.machine('psorb002')?.state).toBe('starting');

    await world.maya.machines.setAccess('psorb002', { userId: 'u1sam', enableAccess: false });
    expect(await world.maya.machines.accessors('psorb002')).toEqual([]);
    expect(await rejectionOf(world.sam.machines.stop('psorb002'))).toBeInstanceOf(PaperspacePermissionError);
  });

  it('with a /v1 base URL, sends no X-Api-Key and no contract path', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const proxy = await startRecordingProxy(world.emulator.url);
    try {
      const client = world.client('maya', { baseUrl: `${proxy.url}/v1` });
      await client.account.whoAmI();
      await client.machines.list();
      const [machine] = await client.machines.list({ state: 'off' });
      if (machine) {
        await client.machines.show(machine.id);
        await client.machines.utilization(machine.id, '2024-05');
      }
      await client.templates.list();
      await client.users.list();
      await client.networks.list();
      await client.scripts.list();
      await client.sharedDrives.list();
      expect(proxy.requests.length).toBeGreaterThan(8);
      for (const request of proxy.requests) {
        expect(request.headers['x-api-key']).toBeUndefined();
        expect(request.headers.authorization).toBe('Bearer demo-key-maya-team-admin');
        expect(request.path.startsWith('/v1/')).toBe(true);
        expect(request.path).not.toMatch(
          /getMachines|getMachinePublic|getUtilization|getScripts|getUsers|graphql/,
        );
      }
    } finally {
      await proxy.close();
    }
  });
});
