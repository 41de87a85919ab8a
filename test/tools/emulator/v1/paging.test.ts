import { describe, expect, it } from 'vitest';
import { KEY } from '../test-seed.js';
import { startV1 } from './v1-harness.js';

describe('v1 cursor pages', () => {
  it('walks every machine across several pages, later pages one short, no item twice', async () => {
    const api = await startV1();
    const added = api.emulator.state.addMachines(23, { owner: 'u-alma', namePrefix: 'bulk' });
    const { items, pages } = await api.all('/machines', KEY.alma, { limit: 5, orderBy: 'name' });
    const ids = items.map((machine) => machine.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of added) expect(ids).toContain(id);
    expect(pages.length).toBeGreaterThan(4);
    expect(pages[0]).toBe(5);
    expect(pages.slice(1, -1).every((count) => count === 4)).toBe(true);
  });

  it('a client that stops at the first page shorter than limit misses machines', async () => {
    const api = await startV1();
    api.emulator.state.addMachines(10, { owner: 'u-alma' });
    const first = await api.call('GET', '/machines', { key: KEY.alma, query: { limit: 4 } });
    const second = await api.call('GET', '/machines', {
      key: KEY.alma,
      query: { limit: 4, after: first.body.nextPage },
    });
    expect(second.body.items).toHaveLength(3);
    expect(second.body.hasMore).toBe(true);
  });

  it('gives full pages with shortPages off, and nextPage null on the last page', async () => {
    const api = await startV1({ shortPages: false });
    api.emulator.state.addMachines(9, { owner: 'u-alma' });
    const { pages } = await api.all('/machines', KEY.alma, { limit: 4 });
    // 9 added + 4 seeded machines of the Acme team = 13
    expect(pages).toEqual([4, 4, 4, 1]);
    const last = await api.call('GET', '/machines', { key: KEY.alma, query: { limit: 120 } });
    expect(last.body).toMatchObject({ hasMore: false, nextPage: null });
  });

  it('orders by name descending and keeps that order across pages', async () => {
    const api = await startV1();
    const { items } = await api.all('/machines', KEY.alma, { limit: 2, orderBy: 'name', order: 'desc' });
    const names = items.map((machine) => machine.name);
    expect(names).toEqual([...names].sort().reverse());
  });

  it('does not skip or repeat when a machine is deleted between pages', async () => {
    const api = await startV1();
    api.emulator.state.addMachines(6, { owner: 'u-alma', namePrefix: 'x' });
    const first = await api.call('GET', '/machines', { key: KEY.alma, query: { limit: 3, orderBy: 'name' } });
    const seen = first.body.items.map((machine: { id: string }) => machine.id);
    const gone = await api.call('DELETE', `/machines/${seen[2]}`, { key: KEY.alma });
    expect(gone.status).toBe(200);
    const rest = await api.all('/machines', KEY.alma, {
      limit: 3,
      orderBy: 'name',
      after: first.body.nextPage,
    });
    const all = await api.all('/machines', KEY.alma, { limit: 120, orderBy: 'name' });
    expect([...seen.slice(0, 2), ...rest.items.map((machine) => machine.id)]).toEqual(
      all.items.map((machine) => machine.id),
    );
  });

  it('refuses a limit outside 1-120, a forged cursor, an unknown orderBy and the state filter', async () => {
    const api = await startV1();
    const queries: Array<Record<string, string | number>> = [
      { limit: 0 },
      { limit: 121 },
      { after: 'garbage' },
      { orderBy: 'ram' },
      { state: 'off' },
    ];
    for (const query of queries) {
      const response = await api.call('GET', '/machines', { key: KEY.alma, query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.code).toBe('BAD_REQUEST');
    }
  });

  it('filters on name, region (id or name), agentType and machineType', async () => {
    const api = await startV1();
    const byRegion = await api.all('/machines', KEY.alma, { region: 'ams1' });
    expect(byRegion.items.map((machine) => machine.id).sort()).toEqual(['ps-alma-off', 'ps-nora-off']);
    const byName = await api.all('/machines', KEY.alma, { region: 'Europe (AMS1)', name: 'alma-cpu' });
    expect(byName.items.map((machine) => machine.id)).toEqual(['ps-alma-off']);
    const desktops = await api.all('/machines', KEY.alma, { agentType: 'LinuxDesktop' });
    expect(desktops.items.map((machine) => machine.id)).toEqual(['ps-milo-off']);
    const p4000 = await api.all('/machines', KEY.alma, { machineType: 'P4000' });
    expect(p4000.items.map((machine) => machine.id)).toEqual(['ps-milo-off']);
  });
});
