// waitForState against the emulator, one fake clock driving both: each poll interval the client
// sleeps advances the emulator's clock, and the world's timeline lets other people act meanwhile.
import { describe, expect, it } from 'vitest';
import {
  MachineGoneError,
  MachineOperationFailedError,
  WaitTimeoutError,
} from '../../src/paperspace/wait-errors.js';
import { rejectionOf, startContractWorld, TRANSITION_MS } from './harness.js';

const ADA_RENDER = 'psada003'; // Ubuntu desktop: boots to ready
const ADA_CPU_BOX = 'psada002'; // Ubuntu server: boots to serviceready
const POLL_MS = 250;

describe('waitForState', () => {
  it('returns the ready machine with its events, having reported off, starting and ready', async () => {
    const world = await startContractWorld();
    // The wait sees the machine off first; the owner starts it a moment later.
    world.at(POLL_MS, () => world.ada.machines.start(ADA_RENDER));
    const changes: Array<[string, string | undefined]> = [];

    const machine = await world.ada.machines.waitForState(ADA_RENDER, 'ready', {
      timeoutMs: 60_000,
      intervalMs: POLL_MS,
      onChange: (seen, previous) => {
        changes.push([seen.state, previous]);
      },
    });

    expect(changes).toEqual([
      ['off', undefined],
      ['starting', 'off'],
      ['ready', 'starting'],
    ]);
    expect(machine).toMatchObject({ id: ADA_RENDER, state: 'ready' });
    expect(machine.events[0]).toMatchObject({ name: 'start', state: 'done' });
    // One poll before the start, then one per interval until the transition is over.
    expect(world.sleeps).toEqual(Array(1 + TRANSITION_MS / POLL_MS).fill(POLL_MS));
  });

  it('waits for serviceready and for off as well', async () => {
    const world = await startContractWorld();
    await world.ada.machines.start(ADA_CPU_BOX);
    const booted = await world.ada.machines.waitForState(ADA_CPU_BOX, 'serviceready', {
      timeoutMs: 10_000,
      intervalMs: POLL_MS,
    });
    expect(booted.state).toBe('serviceready');
    await world.ada.machines.stop(ADA_CPU_BOX);
    const off = await world.ada.machines.waitForState(ADA_CPU_BOX, 'off', {
      timeoutMs: 10_000,
      intervalMs: POLL_MS,
    });
    expect(off.events[0]).toMatchObject({ name: 'stop', state: 'done' });
  });

  it('gives up at the deadline with WaitTimeoutError carrying the last machine seen', async () => {
    const world = await startContractWorld();
    const startedAt = world.clock.now();
    const error = await rejectionOf(
      world.ada.machines.waitForState(ADA_RENDER, 'ready', { timeoutMs: 3_000, intervalMs: 1_000 }),
    );
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.message).toBe(
      'ada-render did not become ready within 3 s; it is still off. Check it with /ps show, or wait again.',
    );
    expect((error as WaitTimeoutError).machine?.state).toBe('off');
    expect(world.clock.now() - startedAt).toBe(3_000);
  });

  it('fails with MachineOperationFailedError and Paperspace’s reason when the start fails', async () => {
    const world = await startContractWorld();
    world.state.failNextOperation(ADA_RENDER, 'No P5000 host left in Europe (AMS1)');
    await world.ada.machines.start(ADA_RENDER);

    const error = await rejectionOf(
      world.ada.machines.waitForState(ADA_RENDER, 'ready', { timeoutMs: 60_000, intervalMs: POLL_MS }),
    );

    expect(error).toBeInstanceOf(MachineOperationFailedError);
    expect(error.message).toBe(
      'Paperspace reports that the start of ada-render failed: No P5000 host left in Europe (AMS1). ' +
        'Check the machine in the Paperspace console before trying again.',
    );
    expect((error as MachineOperationFailedError).machine.state).toBe('off');
    expect(world.sleeps.reduce((total, ms) => total + ms, 0)).toBe(TRANSITION_MS);
  });

  it('fails with MachineGoneError when the machine is destroyed during the wait', async () => {
    const world = await startContractWorld();
    await world.ada.machines.start(ADA_RENDER);
    world.at(2 * POLL_MS, () => world.ada.machines.destroy(ADA_RENDER));

    const error = await rejectionOf(
      world.ada.machines.waitForState(ADA_RENDER, 'ready', { timeoutMs: 60_000, intervalMs: POLL_MS }),
    );

    expect(error).toBeInstanceOf(MachineGoneError);
    expect(error.message).toBe(
      'Machine "psada003" no longer exists or is no longer visible to your account; it may have been destroyed.',
    );
    expect(world.sleeps).toEqual([POLL_MS, POLL_MS]);
  });

  it('keeps polling through a transient 500 and still sees the machine become ready', async () => {
    const world = await startContractWorld();
    await world.ada.machines.start(ADA_RENDER);
    world.state.failNextRequests({ count: 1, status: 500, path: '/machines/getMachinePublic' });
    const machine = await world.ada.machines.waitForState(ADA_RENDER, 'ready', {
      timeoutMs: 60_000,
      intervalMs: POLL_MS,
    });
    expect(machine.state).toBe('ready');
    const statuses = world.state
      .requests()
      .filter((entry) => entry.path === '/machines/getMachinePublic')
      .map((entry) => entry.status);
    expect(statuses[0]).toBe(500);
    expect(statuses.at(-1)).toBe(200);
  });

  it('polls no faster than the rate limit’s Retry-After allows, and still sees the machine ready', async () => {
    const world = await startContractWorld({ rateLimit: 1 });
    await world.ada.machines.start(ADA_RENDER);
    const machine = await world.ada.machines.waitForState(ADA_RENDER, 'ready', {
      timeoutMs: 60_000,
      intervalMs: POLL_MS,
    });
    expect(machine.state).toBe('ready');
    const shows = world.state.requests().filter((entry) => entry.path === '/machines/getMachinePublic');
    expect(shows.map((entry) => entry.status)).toContain(429);
    // After a 429 the next poll waits the second the emulator asked for, not the 250 ms interval.
    expect(world.sleeps).toContain(1000);
  });
});

describe('waitForState after a failed create', () => {
  it('names the create’s own reason, not the cancelled start queued behind it', async () => {
    const world = await startContractWorld();
    world.state.failNextCreate('No capacity left in West Coast (CA1)');
    const { id } = await world.ada.machines.create({
      region: 'West Coast (CA1)',
      machineType: 'P4000',
      size: 250,
      billingType: 'hourly',
      machineName: 'unlucky',
      templateId: 'tkni3aa4',
    });
    // The bot starts waiting a moment after the create answered.
    world.clock.advance(100);

    const error = await rejectionOf(
      world.ada.machines.waitForState(id, 'ready', { timeoutMs: 60_000, intervalMs: POLL_MS }),
    );

    expect(error).toBeInstanceOf(MachineOperationFailedError);
    expect(error.message).toBe(
      'Paperspace reports that the create of unlucky failed: No capacity left in West Coast (CA1). ' +
        'Check the machine in the Paperspace console before trying again.',
    );
  });
});
