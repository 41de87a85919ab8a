import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const ADA = { teamId: 'T1', userId: 'U_ADA' };
const BOB = { teamId: 'T1', userId: 'U_BOB' };

describe.each(storeFactories)('audit records on $name', (factory) => {
  const db = useFreshStore(factory);

  it('records who did what to which machine, when, and how it went', async () => {
    const record = await db.store.audit.record({
      ...ADA,
      action: 'machine.stop',
      resourceId: 'psabc123',
      outcome: 'error',
      message: 'Only the owner may stop this machine',
      at: 1000,
    });
    expect(record).toEqual({
      id: expect.any(Number),
      ...ADA,
      action: 'machine.stop',
      resourceId: 'psabc123',
      outcome: 'error',
      message: 'Only the owner may stop this machine',
      at: 1000,
    });
    expect(await db.store.audit.list({ limit: 10 })).toEqual([record]);
  });

  it('records an action without a machine or a message', async () => {
    const record = await db.store.audit.record({ ...ADA, action: 'drive.list', outcome: 'ok', at: 1 });
    expect(record).toMatchObject({ resourceId: null, message: null });
  });

  it('lists newest first, ties in insertion order reversed, limited', async () => {
    for (const [action, at] of [
      ['a', 10],
      ['b', 30],
      ['c', 20],
      ['d', 30],
    ] as const) {
      await db.store.audit.record({ ...ADA, action, outcome: 'ok', at });
    }
    expect((await db.store.audit.list({ limit: 3 })).map((record) => record.action)).toEqual(['d', 'b', 'c']);
  });

  it('filters by user, by team and by machine', async () => {
    await db.store.audit.record({ ...ADA, action: 'machine.start', resourceId: 'm1', outcome: 'ok', at: 1 });
    await db.store.audit.record({ ...BOB, action: 'machine.start', resourceId: 'm2', outcome: 'ok', at: 2 });
    await db.store.audit.record({ teamId: 'T2', userId: 'U_ADA', action: 'x', outcome: 'ok', at: 3 });
    const actors = async (filter: Parameters<typeof db.store.audit.list>[0]) =>
      (await db.store.audit.list(filter)).map((record) => `${record.teamId}/${record.userId}`);
    expect(await actors({ userId: 'U_BOB', limit: 10 })).toEqual(['T1/U_BOB']);
    expect(await actors({ ...ADA, limit: 10 })).toEqual(['T1/U_ADA']);
    expect(await actors({ teamId: 'T1', limit: 10 })).toEqual(['T1/U_BOB', 'T1/U_ADA']);
    expect(await actors({ resourceId: 'm1', limit: 10 })).toEqual(['T1/U_ADA']);
  });

  it('keeps the gist of a very long error message', async () => {
    const record = await db.store.audit.record({
      ...ADA,
      action: 'x',
      outcome: 'error',
      message: 'e'.repeat(5000),
      at: 1,
    });
    expect(record.message).toHaveLength(1000);
    expect(record.message?.endsWith('…')).toBe(true);
  });

  it.each([0, -1, 1.5, 1001])('refuses the list limit %s', async (limit) => {
    await expect(db.store.audit.list({ limit })).rejects.toThrow(
      /limit must be a whole number from 1 to 1000/,
    );
  });
});
