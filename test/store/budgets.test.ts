import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 9, 0);
const TEAM = { teamId: 'T1', paperspaceTeamId: 'team-a' };
const SAM = { userId: 'U_SAM' };

describe.each(storeFactories)('budgets on $name', (factory) => {
  const db = useFreshStore(factory);

  it('keeps the team budget first, replaces an amount without losing the counted spend, and removes one or all', async () => {
    const { budgets } = db.store;
    await budgets.set({ ...TEAM, subject: SAM, amountCents: 30_000, setBy: 'U_ADA', at: T0 });
    await budgets.set({ ...TEAM, subject: 'team', amountCents: 200_000, setBy: 'U_ADA', at: T0 });
    await budgets.recordSpend({
      ...TEAM,
      month: '2025-01',
      at: T0 + 1,
      spent: [{ subject: SAM, cents: 12_345 }],
    });
    await budgets.set({ ...TEAM, subject: SAM, amountCents: 10_000, setBy: 'U_BEN', at: T0 + 2 });

    const listed = await budgets.list(TEAM.teamId, TEAM.paperspaceTeamId);
    expect(listed.map((budget) => [budget.subject, budget.amountCents, budget.spentCents])).toEqual([
      ['team', 200_000, null],
      [SAM, 10_000, 12_345],
    ]);
    expect(listed[1]).toMatchObject({ setBy: 'U_BEN', spentMonth: '2025-01', spentAt: T0 + 1 });
    expect(await budgets.list('T1', 'team-b')).toEqual([]);

    expect(await budgets.remove(TEAM.teamId, TEAM.paperspaceTeamId, SAM)).toBe(1);
    await budgets.set({ ...TEAM, subject: SAM, amountCents: 1, setBy: 'U_ADA', at: T0 });
    expect(await budgets.remove(TEAM.teamId, TEAM.paperspaceTeamId)).toBe(2);
    expect(await budgets.listAll()).toEqual([]);
  });

  it('gives each alert of a month to one of many simultaneous claims, from two connections, and never again', async () => {
    const other = await db.connect();
    const place = { ...TEAM, subject: 'team' as const, month: '2025-01', threshold: 80 };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).budgets.claimAlert(place, { by: `replica-${i}`, at: T0 }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db.store.budgets.claimAlert(place, { by: 'later', at: T0 + 86_400_000 })).toBe(false);
    expect(await db.store.budgets.claimAlert({ ...place, threshold: 100 }, { by: 'r', at: T0 })).toBe(true);
    expect(await db.store.budgets.claimAlert({ ...place, month: '2025-02' }, { by: 'r', at: T0 })).toBe(true);
  });

  it('lets one caller count a team per interval', async () => {
    const { budgets } = db.store;
    const interval = 300_000;
    expect(await budgets.claimCheck('T1', 'team-a', T0, T0 - interval)).toBe(true);
    expect(await budgets.claimCheck('T1', 'team-a', T0 + 1, T0 + 1 - interval)).toBe(false);
    expect(await budgets.claimCheck('T1', 'team-b', T0 + 1, T0 + 1 - interval)).toBe(true);
    expect(await budgets.claimCheck('T1', 'team-a', T0 + interval, T0)).toBe(false);
    expect(await budgets.claimCheck('T1', 'team-a', T0 + interval + 1, T0 + 1)).toBe(true);
  });
});
