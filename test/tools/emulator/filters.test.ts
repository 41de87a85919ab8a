import { beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';
import { KEY } from './test-seed.js';

type Listed = { id: string; name: string; state: string; internalId: number; events?: unknown };

describe('getMachines with 2500 machines', () => {
  let api: Harness;
  const list = async (query: Record<string, string | number | boolean> = {}) => {
    const response = await api.get('/machines/getMachines', { key: KEY.otto, query });
    expect(response.status).toBe(200);
    return response.body as Listed[];
  };

  beforeEach(async () => {
    api = await startHarness();
    api.emulator.state.addMachines(1500, { owner: 'u-otto', namePrefix: 'idle' });
    api.emulator.state.addMachines(1000, {
      owner: 'u-otto',
      namePrefix: 'busy',
      state: 'serviceready',
      machineType: 'C7',
    });
  });

  it('answers the first 1000 by default, with internalId and without events', async () => {
    const page = await list();
    expect(page).toHaveLength(1000);
    expect(page[0]?.name).toBe('otto-cpu');
    expect(page[1]?.name).toBe('idle-1');
    expect(typeof page[0]?.internalId).toBe('number');
    expect(page[0]?.events).toBeUndefined();
  });

  it('pages with skip = (n-1) x 1000 until the last partial page', async () => {
    const pages = [
      await list({ skip: 0 }),
      await list({ skip: 1000 }),
      await list({ skip: 2000 }),
      await list({ skip: 3000 }),
    ];
    expect(pages.map((page) => page.length)).toEqual([1000, 1000, 501, 0]);
    const ids = new Set(pages.flat().map((machine) => machine.id));
    expect(ids.size).toBe(2501);
  });

  it('applies limit and skip together', async () => {
    const page = await list({ limit: 3, skip: 5 });
    expect(page.map((machine) => machine.name)).toEqual(['idle-5', 'idle-6', 'idle-7']);
  });

  it('filters before paginating', async () => {
    const busy = await list({ state: 'serviceready', limit: 1000, skip: 500 });
    expect(busy).toHaveLength(500);
    expect(busy.every((machine) => machine.state === 'serviceready')).toBe(true);
    expect(busy[0]?.name).toBe('busy-501');
  });

  it('compares numbers and booleans after parsing them', async () => {
    expect(await list({ cpus: 12, limit: 1000 })).toHaveLength(1000);
    expect(await list({ cpus: '12.0', skip: 999 })).toHaveLength(1);
    expect(await list({ updatesPending: true })).toHaveLength(0);
    expect(await list({ performAutoSnapshot: false, skip: 2000 })).toHaveLength(501);
  });

  it('combines filters, and matches machineId exactly', async () => {
    const [first] = await list({ limit: 1 });
    expect(await list({ machineId: first?.id ?? '' })).toEqual([first]);
    expect(await list({ machineId: first?.id ?? '', state: 'ready' })).toEqual([]);
    expect(await list({ name: 'busy-42', region: 'East Coast (NY2)' })).toHaveLength(1);
    expect(await list({ name: 'busy-42', region: 'Europe (AMS1)' })).toHaveLength(0);
  });
});

describe('getMachines parameters it refuses', () => {
  it.each([
    [{ id: 'ps-ivy-off' }, /Unknown filter "id"/],
    [{ machineType: 'C4' }, /Unknown filter "machineType"/],
    [{ cpus: 'two' }, /cpus must be a number/],
    [{ updatesPending: 'yes' }, /updatesPending must be true or false/],
    [{ limit: 0 }, /limit must be between 1 and 1000/],
    [{ limit: 1001 }, /limit must be between 1 and 1000/],
    [{ limit: 'ten' }, /limit must be a non-negative integer/],
    [{ skip: -1 }, /skip must be a non-negative integer/],
  ])('refuses %j with 400', async (query, message) => {
    const api = await startHarness();
    const response = await api.get('/machines/getMachines', { key: KEY.ivy, query });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });
});
