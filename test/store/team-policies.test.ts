import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2026, 11, 7, 8, 0);
const ORBITAL = { teamId: 'T1', paperspaceTeamId: 'te1orbit' };
const OTHER = { teamId: 'T1', paperspaceTeamId: 'te2other' };
const BERLIN = { start: '20:00', end: '07:00', days: 'weekdays', timezone: 'Europe/Berlin' } as const;

describe.each(storeFactories)('team policies on $name', (factory) => {
  const db = useFreshStore(factory);

  it("keeps each team's rules apart, with who set each and when; setting one again replaces it", async () => {
    const policies = db.store.policies;
    await policies.setRule(ORBITAL, 'max_run', { ms: 12 * 3_600_000 }, { setBy: 'U_MAYA', at: T0 });
    await policies.setRule(ORBITAL, 'off_hours', BERLIN, { setBy: 'U_MAYA', at: T0 + 1 });
    await policies.setRule(ORBITAL, 'max_run', { ms: 3_600_000 }, { setBy: 'U_LEE', at: T0 + 2 });
    expect(await policies.rules(ORBITAL)).toEqual({
      max_run: { ms: 3_600_000, setBy: 'U_LEE', setAt: T0 + 2 },
      off_hours: { ...BERLIN, setBy: 'U_MAYA', setAt: T0 + 1 },
    });
    expect(await policies.rules(OTHER)).toEqual({});
    expect(await policies.clear(ORBITAL, 'max_run')).toBe(1);
    expect(Object.keys(await policies.rules(ORBITAL))).toEqual(['off_hours']);
  });

  it('clearing every rule ends the exemptions too; an exemption past its day is not in force', async () => {
    const policies = db.store.policies;
    await policies.setRule(ORBITAL, 'max_run', { ms: 3_600_000 }, { setBy: 'U_MAYA', at: T0 });
    const exemption = { machineName: 'team-build', untilAt: T0 + 86_400_000, setBy: 'U_MAYA' };
    await policies.exempt(ORBITAL, { machineId: 'm1', ...exemption }, T0);
    await policies.exempt(ORBITAL, { machineId: 'm2', ...exemption, untilAt: T0 - 1 }, T0);
    expect((await policies.exemptions(ORBITAL, T0)).map((row) => row.machineId)).toEqual(['m1']);
    expect(await policies.clear(ORBITAL)).toBe(1);
    expect(await policies.exemptions(ORBITAL, T0)).toEqual([]);
  });

  it('gives a warning or a stop to exactly one of two replicas, and again once given back', async () => {
    const replica = await db.connect();
    const step = { machineId: 'm1', kind: 'off_hours', dueAt: T0, step: 'stop' } as const;
    const claims = await Promise.all([
      db.store.policies.claim('T1', step, T0),
      replica.policies.claim('T1', step, T0),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await db.store.policies.claim('T1', { ...step, step: 'warn' }, T0)).toBe(true);
    await db.store.policies.release('T1', step);
    expect(await replica.policies.claim('T1', step, T0)).toBe(true);
    expect(await db.store.policies.prune(T0 + 1)).toBe(2);
    expect(await db.store.policies.claim('T1', step, T0)).toBe(true);
  });

  it('keeps the latest extension of each machine and rule', async () => {
    const policies = db.store.policies;
    await policies.extend('T1', 'm1', 'max_run', T0 + 4, 'U_MAYA', T0);
    await policies.extend('T1', 'm1', 'max_run', T0 + 8, 'U_MAYA', T0 + 1);
    await policies.extend('T1', 'm1', 'off_hours', T0 + 5, 'U_MAYA', T0);
    expect(await policies.extensions('T1', ['m1', 'm2'])).toEqual(
      new Map([
        ['m1/max_run', T0 + 8],
        ['m1/off_hours', T0 + 5],
      ]),
    );
    expect(await policies.extensions('T1', [])).toEqual(new Map());
  });
});
