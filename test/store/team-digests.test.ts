import { describe, expect, it } from 'vitest';
import type { NewTeamDigest } from '../../src/store/team-digests.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 8, 0);

const daily = (overrides: Partial<NewTeamDigest> = {}): NewTeamDigest => ({
  teamId: 'T1',
  paperspaceTeamId: 'te1orbit',
  channel: 'C_OPS',
  cron: '0 9 * * *',
  timezone: 'Europe/Berlin',
  label: 'daily at 09:00',
  setBy: 'U_MAYA',
  createdAt: T0,
  ...overrides,
});

describe.each(storeFactories)('team digests on $name', (factory) => {
  const db = useFreshStore(factory);

  it('keeps one digest per Paperspace team: setting it again replaces it under a new id', async () => {
    const first = await db.store.teamDigests.put(daily());
    expect(await db.store.teamDigests.forTeam('T1', 'te1orbit')).toEqual(first);
    const second = await db.store.teamDigests.put(daily({ channel: 'C_FINANCE', createdAt: T0 + 1 }));
    expect(second.id).not.toBe(first.id);
    const other = await db.store.teamDigests.put(daily({ paperspaceTeamId: 'te2other', createdAt: T0 + 2 }));
    expect(await db.store.teamDigests.listAll()).toEqual([second, other]);
    expect(await db.store.teamDigests.get(first.id)).toBeUndefined();
  });

  it('gives an occurrence to exactly one of two replicas, and none once the digest is deleted', async () => {
    const digest = await db.store.teamDigests.put(daily());
    const replica = await db.connect();
    const results = await Promise.all([
      db.store.teamDigests.claimRun(digest.id, T0, { owner: 'a', at: T0 }),
      replica.teamDigests.claimRun(digest.id, T0, { owner: 'b', at: T0 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db.store.teamDigests.delete(digest.id)).toBe(true);
    expect(await db.store.teamDigests.delete(digest.id)).toBe(false);
    expect(await replica.teamDigests.claimRun(digest.id, T0 + 86_400_000, { owner: 'b', at: T0 })).toBe(
      false,
    );
  });

  it('forgets old claimed occurrences', async () => {
    const digest = await db.store.teamDigests.put(daily());
    await db.store.teamDigests.claimRun(digest.id, T0, { owner: 'a', at: T0 });
    await db.store.teamDigests.claimRun(digest.id, T0 + 86_400_000, { owner: 'a', at: T0 });
    expect(await db.store.teamDigests.pruneRuns(T0 + 1)).toBe(1);
  });
});
