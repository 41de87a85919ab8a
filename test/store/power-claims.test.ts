import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 9, 0);
const TTL = 30_000;
const claimOf = (operation: string, userId: string, at = T0) => ({
  teamId: 'T1',
  machineId: 'psgpu1',
  operation,
  userId,
  at,
  expiresAt: at + TTL,
});

describe.each(storeFactories)('power claims on $name', (factory) => {
  const db = useFreshStore(factory);

  it('gives one of twenty simultaneous claims of a start, from two connections, and names its holder to the rest', async () => {
    const other = await db.connect();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).powerClaims.claim(claimOf('start', `U${i}`)),
      ),
    );
    const won = results.filter((result) => result.claimed);
    expect(won).toHaveLength(1);
    const holders = new Set(results.flatMap((result) => (result.claimed ? [] : [result.heldBy.userId])));
    expect(holders.size).toBe(1);
  });

  it('lets the claim go once it expires, once it is released, and to a different operation at once', async () => {
    const first = await db.store.powerClaims.claim(claimOf('start', 'U_ADA'));
    expect(first.claimed).toBe(true);
    expect((await db.store.powerClaims.claim(claimOf('start', 'U_ADA', T0 + TTL - 1))).claimed).toBe(false);
    expect((await db.store.powerClaims.claim(claimOf('start', 'U_ADA', T0 + TTL))).claimed).toBe(true);

    const stop = await db.store.powerClaims.claim(claimOf('stop', 'U_ADA', T0 + TTL + 1));
    expect(stop.claimed).toBe(true);
    if (!stop.claimed) return;
    await db.store.powerClaims.release({ teamId: 'T1', machineId: 'psgpu1', claimId: stop.claimId });
    expect((await db.store.powerClaims.claim(claimOf('stop', 'U_SAM', T0 + TTL + 2))).claimed).toBe(true);
  });

  it('prunes the expired claims only', async () => {
    await db.store.powerClaims.claim(claimOf('start', 'U_ADA'));
    await db.store.powerClaims.claim({ ...claimOf('stop', 'U_ADA', T0 + TTL), machineId: 'psgpu2' });
    expect(await db.store.powerClaims.pruneExpired(T0 + TTL + 1)).toBe(1);
    expect((await db.store.powerClaims.claim(claimOf('start', 'U_SAM', T0 + TTL + 1))).claimed).toBe(true);
    const gpu2 = await db.store.powerClaims.claim({
      ...claimOf('stop', 'U_SAM', T0 + TTL + 1),
      machineId: 'psgpu2',
    });
    expect(gpu2.claimed).toBe(false);
  });
});
