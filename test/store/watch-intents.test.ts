// A power request's watch stored before its call, as its intent: not polled until the call's answer is
// recorded, superseding the machine's older watches only then, and taken for recovery by one replica.
import { describe, expect, it } from 'vitest';
import type { NewWatch } from '../../src/store/watches.js';
import { storeFactories, useFreshStore } from './store-factories.js';
import { MINUTE, newWatch, T0 } from './watch-fixtures.js';

/** A machine that was off when the request was made. */
const offWatch = (overrides: Partial<NewWatch> = {}): NewWatch =>
  newWatch({ lastState: 'off', ...overrides });

const intent = (overrides: Partial<NewWatch> = {}) =>
  offWatch({ operation: 'start', pendingSince: T0, supersedes: 'superseded by a newer start', ...overrides });

describe.each(storeFactories)('power intents on $name', (factory) => {
  const db = useFreshStore(factory);

  it('is not polled, and supersedes nothing, until its call is recorded as sent', async () => {
    const older = await db.store.watches.create(offWatch({ targetState: 'off', operation: 'stop' }));
    const created = await db.store.watches.create(intent());
    expect(created.superseded).toEqual([]);
    expect(created).toMatchObject({ pendingSince: T0, operation: 'start', status: 'active' });

    const claim = await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0, leaseMs: MINUTE });
    expect(claim.watches.map((watch) => watch.id)).toEqual([older.id]);

    const sent = await db.store.watches.markSent(created.id, {
      at: T0 + 1000,
      lastState: 'starting',
      eventId: 'ev-1',
      messageTs: '1700000000.000100',
      supersedes: 'superseded by a newer start',
    });
    expect(sent.recorded).toBe(true);
    expect(sent.superseded.map((watch) => watch.id)).toEqual([older.id]);
    expect(await db.store.watches.get(created.id)).toMatchObject({
      pendingSince: null,
      lastState: 'starting',
      eventId: 'ev-1',
      messageTs: '1700000000.000100',
      timeline: [{ state: 'starting', at: T0 + 1000 }],
    });
    const again = await db.store.watchLeases.claimPeople({
      owner: 'replica-a',
      now: T0 + 1000,
      leaseMs: MINUTE,
    });
    expect(again.watches.map((watch) => watch.id)).toEqual([created.id]);
  });

  it('records the card of an intent the recovery already sent, and nothing on a finished watch', async () => {
    const created = await db.store.watches.create(intent());
    await db.store.watches.markSent(created.id, { at: T0 + 50_000, lastState: 'ready' });
    const card = await db.store.watches.markSent(created.id, {
      at: T0 + 60_000,
      messageTs: '1.2',
      channel: 'D1',
    });
    expect(card.recorded).toBe(true);
    expect(await db.store.watches.get(created.id)).toMatchObject({ messageTs: '1.2', channel: 'D1' });

    await db.store.watches.complete(created.id, { status: 'done', at: T0 + 70_000 });
    expect(
      (await db.store.watches.markSent(created.id, { at: T0 + 80_000, messageTs: '1.3' })).recorded,
    ).toBe(false);
  });

  it('hands each intent past its grace to one replica, then not again until the next grace', async () => {
    const first = await db.store.watches.create(intent());
    await db.store.watches.create(
      intent({ machineId: 'psgpu2', pendingSince: T0 + 30_000, createdAt: T0 + 30_000 }),
    );
    const other = await db.connect();

    const due = await db.store.watches.pendingIntents(T0 + 10_000, 10);
    expect(due.map((watch) => watch.id)).toEqual([first.id]);
    const claims = await Promise.all([
      db.store.watches.claimIntent(first.id, T0, T0 + 60_000),
      other.watches.claimIntent(first.id, T0, T0 + 60_000),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await db.store.watches.pendingIntents(T0 + 50_000, 10)).map((watch) => watch.machineId)).toEqual([
      'psgpu2',
    ]);
  });
});
