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
