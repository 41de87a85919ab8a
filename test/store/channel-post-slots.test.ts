import { describe, expect, it } from 'vitest';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 9, 0);
const SPACING = 1000;

describe.each(storeFactories)('channel post slots on $name', (factory) => {
  const db = useFreshStore(factory);

  it('gives twenty posts claimed at once from two connections twenty slots a second apart', async () => {
    const other = await db.connect();
    const slots = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).postSlots.claim('C1', T0, SPACING),
      ),
    );
    expect([...slots].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => T0 + i * SPACING));
  });

  it('answers a burst of claims in 400 channels, some claimed twice, with different spacings, a slot each in the order asked', async () => {
    const claims = Array.from({ length: 600 }, (_, i) => ({
      channel: `C${i % 400}`,
      at: T0 + (i % 7) * 100,
      spacing: i % 400 < 200 ? SPACING : 2 * SPACING,
    }));
    const slots = await Promise.all(
      claims.map(({ channel, at, spacing }) => db.store.postSlots.claim(channel, at, spacing)),
    );
    // Every claim is answered no sooner than it asked; a channel's claims take its slots in the order
    // asked, each at least a spacing after the one before; and the next claim comes after them all.
    const last = new Map<string, number>();
    for (const [index, { channel, at, spacing }] of claims.entries()) {
      const slot = slots[index] as number;
      expect(slot).toBeGreaterThanOrEqual(at);
      const before = last.get(channel);
      if (before !== undefined) expect(slot - before).toBeGreaterThanOrEqual(spacing);
      last.set(channel, slot);
    }
    // Gathered, the bursts of both channels go without a gap past the latest moment they asked for.
    const latest = T0 + 6 * 100;
    expect(Math.max(...slots)).toBeLessThanOrEqual(latest + 2 * SPACING);
    expect(await db.store.postSlots.claim('C0', T0, SPACING)).toBeGreaterThanOrEqual(
      (last.get('C0') as number) + SPACING,
    );
  });

  it('moves the app-wide update budget once for a burst of a hundred claims of it, a slot each', async () => {
    const slots = await Promise.all(
      Array.from({ length: 100 }, () => db.store.postSlots.claim('chat.update', T0, SPACING)),
    );
    expect(slots).toEqual(Array.from({ length: 100 }, (_, i) => T0 + i * SPACING));
    expect(await db.store.postSlots.claim('chat.update', T0, SPACING)).toBe(T0 + 100 * SPACING);
  });

  it('lets a post go at once in an idle channel, and keeps each channel apart', async () => {
    expect(await db.store.postSlots.claim('C1', T0, SPACING)).toBe(T0);
    expect(await db.store.postSlots.claim('C1', T0 + 200, SPACING)).toBe(T0 + SPACING);
    expect(await db.store.postSlots.claim('C2', T0 + 200, SPACING)).toBe(T0 + 200);
    // Idle for longer than the spacing: the next post goes when it asks, not at a slot in the past.
    expect(await db.store.postSlots.claim('C1', T0 + 5000, SPACING)).toBe(T0 + 5000);
  });

  it('prunes only the slots that are over', async () => {
    await db.store.postSlots.claim('C1', T0, SPACING);
    await db.store.postSlots.claim('C2', T0 + 5000, SPACING);
    expect(await db.store.postSlots.pruneBefore(T0 + 2000)).toBe(1);
    // C2's slot still holds: the next post there waits for it.
    expect(await db.store.postSlots.claim('C2', T0 + 5100, SPACING)).toBe(T0 + 6000);
    expect(await db.store.postSlots.claim('C1', T0 + 2000, SPACING)).toBe(T0 + 2000);
  });
});
