// Every machine operation of the contract, through the real client against the real emulator.
import { describe, expect, it } from 'vitest';
import { PaperspaceNotFoundError, PaperspacePermissionError } from '../../src/paperspace/errors.js';
import type { CreateMachineParams } from '../../src/paperspace/request-params/machine-create-params.js';
import { rejectionOf, startContractWorld, TRANSITION_MS } from './harness.js';

const ADA_WORKSTATION = 'psada001'; // Windows desktop, P4000, ready, West Coast
const ADA_CPU_BOX = 'psada002'; // Ubuntu server, C4, off, East Coast
const ADA_RENDER = 'psada003'; // Ubuntu desktop, P5000, off, Europe

const adaMachine: CreateMachineParams = {
  region: 'West Coast (CA1)',
  machineType: 'P4000',
  size: 250,
  billingType: 'hourly',
  machineName: 'ada-new-workstation',
  templateId: 'tkni3aa4',
  networkId: 'nab1ca1',
};

describe('creating machines', () => {
  it('creates a machine on an individual account with the requested fields, provisioning and owned by the caller', async () => {
    const world = await startContractWorld();
    const machine = await world.ada.machines.create(adaMachine);
    expect(machine).toMatchObject({
      name: 'ada-new-workstation',
      machineType: 'P4000',
      region: 'West Coast (CA1)',
      networkId: 'nab1ca1',
      usageRate: 'P4000 hourly',
      state: 'provisioning',
      os: null,
      userId: 'u1ada',
    });
    expect(machine.events).toBeUndefined();
    expect((await world.ada.machines.show(machine.id)).name).toBe('ada-new-workstation');
  });

  it('provisions, then starts a new machine by default, ending ready with its OS filled in', async () => {
    const world = await startContractWorld();
    const { id } = await world.ada.machines.create(adaMachine);
    world.clock.advance(TRANSITION_MS);
    expect((await world.ada.machines.show(id)).state).toBe('starting');
    world.clock.advance(TRANSITION_MS);
    const ready = await world.ada.machines.show(id);
    expect(ready.state).toBe('ready');
    expect(ready.os).toMatch(/Windows/);
    expect(ready.events.map((event) => [event.name, event.state])).toEqual([
      ['start', 'done'],
      ['create', 'done'],
    ]);
  });

  it('leaves a machine created with startOnCreate false off once provisioned', async () => {
    const world = await startContractWorld();
    const { id } = await world.ada.machines.create({ ...adaMachine, startOnCreate: false });
    world.clock.advance(3 * TRANSITION_MS);
    expect((await world.ada.machines.show(id)).state).toBe('off');
  });

  it('lets a team administrator create a machine for a team member, who then owns and starts it', async () => {
    const world = await startContractWorld();
    const machine = await world.maya.machines.create({
      region: 'East Coast (NY2)',
      machineType: 'C5',
      size: 50,
      billingType: 'hourly',
      machineName: 'sam-second-box',
      templateId: 't04azgph',
      teamId: 'te1orbit',
      userId: 'u1sam',
      startOnCreate: false,
    });
    expect(machine).toMatchObject({ userId: 'u1sam', teamId: 'te1orbit', state: 'provisioning' });
    world.clock.advance(TRANSITION_MS);
    await world.sam.machines.start(machine.id);
    expect((await world.sam.machines.show(machine.id)).state).toBe('starting');
  });
});

describe('creating machines with every optional parameter', () => {
  it('accepts every optional create parameter of the contract and applies what it can see', async () => {
    const world = await startContractWorld();
    const machine = await world.ada.machines.create({
      ...adaMachine,
      assignPublicIp: true,
      startOnCreate: true,
      scriptId: 'scada001',
      notificationEmail: 'ada.park@example.com',
      takeInitialSnapshot: true,
      markSnapshotAsRestorePoint: true,
      restorePointFrequency: 'shutdown',
      enableNvlink: false,
    });
    expect(machine).toMatchObject({ scriptId: 'scada001', publicIpAddress: null });
    world.clock.advance(2 * TRANSITION_MS);
    const ready = await world.ada.machines.show(machine.id);
    expect(ready.state).toBe('ready');
    expect(ready.publicIpAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(ready.privateIpAddress).toMatch(/^10\.64\.10\.\d+$/);
    expect(ready.dtLastRun).toBe(new Date(world.clock.now()).toISOString());
    // The initial snapshot taken at provisioning is the machine's restore point.
    expect(ready.restorePointFrequency).toBe('shutdown');
    expect(ready.restorePointSnapshotId).toEqual(expect.any(String));
  });

  it('lets a team administrator create a machine together with a new team user, who owns it', async () => {
    const world = await startContractWorld();
    const machine = await world.maya.machines.create({
      region: 'Europe (AMS1)',
      machineType: 'C7',
      size: 100,
      billingType: 'hourly',
      machineName: 'new-hire-box',
      templateId: 'tobitml1',
      teamId: 'te1orbit',
      email: 'new.hire@orbital.example',
      password: 'correct horse battery',
      firstName: 'New',
      lastName: 'Hire',
    });
    const [newHire] = await world.maya.users.list({ email: 'new.hire@orbital.example' });
    expect(newHire).toMatchObject({ firstname: 'New', lastname: 'Hire', teamId: 'te1orbit' });
    expect(machine.userId).toBe(newHire?.id);
  });
});

describe('power operations', () => {
  it('starts an off machine: starting at once, then ready once the transition has passed', async () => {
    const world = await startContractWorld();
    await world.ada.machines.start(ADA_RENDER);
    expect((await world.ada.machines.show(ADA_RENDER)).state).toBe('starting');
    world.clock.advance(TRANSITION_MS);
    expect((await world.ada.machines.show(ADA_RENDER)).state).toBe('ready');
  });

  it('boots a headless Linux machine to serviceready', async () => {
    const world = await startContractWorld();
    await world.ada.machines.start(ADA_CPU_BOX);
    world.clock.advance(TRANSITION_MS);
    expect((await world.ada.machines.show(ADA_CPU_BOX)).state).toBe('serviceready');
  });

  it('treats start of a running machine as a no-op that records no event', async () => {
    const world = await startContractWorld();
    const before = await world.ada.machines.show(ADA_WORKSTATION);
    await world.ada.machines.start(ADA_WORKSTATION);
    const after = await world.ada.machines.show(ADA_WORKSTATION);
    expect(after.state).toBe('ready');
    expect(after.events).toEqual(before.events);
  });

  it('stops a running machine: stopping, then off', async () => {
    const world = await startContractWorld();
    await world.ada.machines.stop(ADA_WORKSTATION);
    expect((await world.ada.machines.show(ADA_WORKSTATION)).state).toBe('stopping');
    world.clock.advance(TRANSITION_MS);
    const off = await world.ada.machines.show(ADA_WORKSTATION);
    expect(off.state).toBe('off');
    expect(off.events[0]).toMatchObject({ name: 'stop', state: 'done', errorMsg: '' });
  });

  it('treats stop of an off machine as a no-op that records no event', async () => {
    const world = await startContractWorld();
    const before = await world.ada.machines.show(ADA_CPU_BOX);
    await world.ada.machines.stop(ADA_CPU_BOX);
    const after = await world.ada.machines.show(ADA_CPU_BOX);
    expect(after.state).toBe('off');
    expect(after.events).toEqual(before.events);
  });

  it('restarts a ready machine: restarting, starting, then ready again', async () => {
    const world = await startContractWorld();
    await world.ada.machines.restart(ADA_WORKSTATION);
    const states = [(await world.ada.machines.show(ADA_WORKSTATION)).state];
    for (let step = 0; step < 2; step += 1) {
      world.clock.advance(TRANSITION_MS);
      states.push((await world.ada.machines.show(ADA_WORKSTATION)).state);
    }
    expect(states).toEqual(['restarting', 'starting', 'ready']);
    expect((await world.ada.machines.show(ADA_WORKSTATION)).events[0]).toMatchObject({
      name: 'restart',
      state: 'done',
    });
  });
});

describe('destroying, updating and showing', () => {
  it('destroys a machine: show then answers PaperspaceNotFoundError and lists omit it', async () => {
    const world = await startContractWorld();
    await world.ada.machines.destroy(ADA_WORKSTATION, { releasePublicIp: true });
    const error = await rejectionOf(world.ada.machines.show(ADA_WORKSTATION));
    expect(error).toBeInstanceOf(PaperspaceNotFoundError);
    expect(error.message).toBe(
      `Paperspace has no machine with id "${ADA_WORKSTATION}" that your account can see. Check the id and try again.`,
    );
    expect((await world.ada.machines.list()).map((machine) => machine.id)).not.toContain(ADA_WORKSTATION);
  });

  it('lets a team administrator destroy a team member’s machine', async () => {
    const world = await startContractWorld();
    await world.maya.machines.destroy('psorb004');
    expect(world.state.machine('psorb004')).toBeUndefined();
  });

  it('updates a machine: the new name and settings show on the next read', async () => {
    const world = await startContractWorld();
    await world.ada.machines.update(ADA_CPU_BOX, {
      machineName: 'ada-builder',
      shutdownTimeoutInHours: 4,
      shutdownTimeoutForces: true,
      performAutoSnapshot: true,
      autoSnapshotFrequency: 'day',
      autoSnapshotSaveCount: 3,
      dynamicPublicIp: true,
    });
    expect(await world.ada.machines.show(ADA_CPU_BOX)).toMatchObject({
      dynamicPublicIp: true,
      name: 'ada-builder',
      shutdownTimeoutInHours: 4,
      shutdownTimeoutForces: true,
      performAutoSnapshot: true,
      autoSnapshotFrequency: 'day',
      autoSnapshotSaveCount: 3,
    });
  });

  it('shows a machine with its events newest first', async () => {
    const world = await startContractWorld();
    await world.ada.machines.start(ADA_RENDER);
    world.clock.advance(TRANSITION_MS);
    await world.ada.machines.stop(ADA_RENDER);
    world.clock.advance(TRANSITION_MS);
    const machine = await world.ada.machines.show(ADA_RENDER);
    expect(machine.events.map((event) => event.name)).toEqual(['stop', 'start', 'create']);
    const created = machine.events.map((event) => Date.parse(event.dtCreated));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(machine.events[0]).toMatchObject({
      state: 'done',
      dtFinished: new Date(world.clock.now()).toISOString(),
    });
  });
});

describe('machine access', () => {
  it('lets a user granted access see a machine of another account, but not start it, until revoked', async () => {
    const world = await startContractWorld();
    expect(await rejectionOf(world.sam.machines.show(ADA_RENDER))).toBeInstanceOf(PaperspaceNotFoundError);

    await world.ada.machines.setAccess(ADA_RENDER, { userId: 'u1sam', enableAccess: true });
    expect((await world.sam.machines.show(ADA_RENDER)).name).toBe('ada-render');
    expect((await world.sam.machines.list({ machineId: ADA_RENDER })).length).toBe(1);
    const startBySam = await rejectionOf(world.sam.machines.start(ADA_RENDER));
    expect(startBySam).toBeInstanceOf(PaperspacePermissionError);
    expect(startBySam.message).toMatch(/^Paperspace does not allow your account to start this machine/);
    expect((await world.ada.machines.show(ADA_RENDER)).state).toBe('off');

    await world.ada.machines.setAccess(ADA_RENDER, { userId: 'u1sam', enableAccess: false });
    expect(await rejectionOf(world.sam.machines.show(ADA_RENDER))).toBeInstanceOf(PaperspaceNotFoundError);
  });
});

describe('machine access within a team', () => {
  it('gives a team member access to the administrator’s machine without making him its owner', async () => {
    const world = await startContractWorld();
    await world.maya.machines.setAccess('psorb002', { userId: 'u1sam', enableAccess: true });
    expect((await world.sam.machines.show('psorb002')).name).toBe('team-build');
    const error = await rejectionOf(world.sam.machines.start('psorb002'));
    expect(error).toBeInstanceOf(PaperspacePermissionError);
    expect((await world.maya.machines.show('psorb002')).state).toBe('off');
  });
});

describe('utilization and availability', () => {
  it('reports the hours a machine ran this month at its type’s hourly rate', async () => {
    const world = await startContractWorld();
    world.clock.advance(2 * 60 * 60 * 1000);
    const usage = await world.ada.machines.utilization(ADA_WORKSTATION, '2024-05');
    expect(usage).toEqual({
      machineId: ADA_WORKSTATION,
      utilization: {
        machineId: ADA_WORKSTATION,
        secondsUsed: 7200,
        hourlyRate: '0.51',
        billingMonth: '2024-05',
      },
      storageUtilization: {
        machineId: ADA_WORKSTATION,
        secondsUsed: 7200,
        monthlyRate: expect.stringMatching(/^\d+\.\d\d$/),
        billingMonth: '2024-05',
      },
    });
    const off = await world.ada.machines.utilization(ADA_CPU_BOX, '2024-05');
    expect(off.utilization.secondsUsed).toBe(0);
    expect((await world.ada.machines.utilization(ADA_WORKSTATION, '2024-04')).utilization.secondsUsed).toBe(
      0,
    );
  });

  it('says whether a dedicated GPU type can be requested in a region, and follows changes', async () => {
    const world = await startContractWorld();
    expect(await world.ada.machines.availability('West Coast (CA1)', 'P6000')).toEqual({ available: true });
    expect(await world.ada.machines.availability('East Coast (NY2)', 'P6000')).toEqual({ available: false });
    world.state.setAvailability('East Coast (NY2)', 'P6000', true);
    expect(await world.ada.machines.availability('East Coast (NY2)', 'P6000')).toEqual({ available: true });
  });
});
