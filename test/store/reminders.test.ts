import { describe, expect, it } from 'vitest';
import type { NewReminder } from '../../src/store/reminders.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const ADA = { teamId: 'T1', userId: 'U_ADA' };
const BOB = { teamId: 'T1', userId: 'U_BOB' };
const T0 = Date.UTC(2025, 0, 6, 18, 0);

const weekdays = (overrides: Partial<NewReminder> = {}): NewReminder => ({
  ...ADA,
  cron: '0 19 * * 1-5',
  timezone: 'Europe/Berlin',
  label: 'end of day',
  channel: 'D_ADA',
  createdAt: T0,
  ...overrides,
});

describe.each(storeFactories)('reminders on $name', (factory) => {
  const db = useFreshStore(factory);

  it('creates a reminder and reads it back', async () => {
    const reminder = await db.store.reminders.create(weekdays());
    expect(reminder).toEqual({ id: expect.any(String), ...weekdays() });
    expect(await db.store.reminders.get(reminder.id)).toEqual(reminder);
  });

  it('creates a reminder without a label', async () => {
    const reminder = await db.store.reminders.create(weekdays({ label: undefined }));
    expect(reminder.label).toBeNull();
  });

  it("lists one person's reminders and everyone's, oldest first", async () => {
    const late = await db.store.reminders.create(weekdays({ createdAt: T0 + 10 }));
    const early = await db.store.reminders.create(weekdays({ createdAt: T0 }));
    const bobs = await db.store.reminders.create(weekdays({ ...BOB, channel: 'D_BOB', createdAt: T0 + 5 }));
    expect(await db.store.reminders.listByUser(ADA)).toEqual([early, late]);
    expect(await db.store.reminders.listAll()).toEqual([early, bobs, late]);
  });

  it("deletes a reminder only for its owner, and with it the owner's snoozes from it", async () => {
    const reminder = await db.store.reminders.create(weekdays());
    await db.store.snoozes.snooze({
      ...ADA,
      machineId: 'm1',
      machineName: 'gpu-1',
      reminderId: reminder.id,
      channel: 'D_ADA',
      fireAt: T0 + 3_600_000,
      createdAt: T0,
    });
    expect(await db.store.reminders.delete(BOB, reminder.id)).toBe(false);
    expect(await db.store.reminders.delete(ADA, reminder.id)).toBe(true);
    expect(await db.store.reminders.get(reminder.id)).toBeUndefined();
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([]);
  });

  it("turns all of one person's reminders off and reports how many", async () => {
    await db.store.reminders.create(weekdays());
    await db.store.reminders.create(weekdays({ cron: '0 22 * * *' }));
    await db.store.reminders.create(weekdays({ ...BOB }));
    expect(await db.store.reminders.deleteByUser(ADA)).toBe(2);
    expect(await db.store.reminders.listByUser(ADA)).toEqual([]);
    expect(await db.store.reminders.listByUser(BOB)).toHaveLength(1);
  });

  it('lets exactly one replica claim each occurrence of a reminder', async () => {
    const reminder = await db.store.reminders.create(weekdays());
    const replica = await db.connect();
    const occurrence = T0 + 3_600_000;
    const results = await Promise.all([
      db.store.reminders.claimRun(reminder.id, occurrence, { owner: 'replica-a', at: occurrence + 3 }),
      replica.reminders.claimRun(reminder.id, occurrence, { owner: 'replica-b', at: occurrence + 5 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const nextDay = occurrence + 86_400_000;
    expect(await replica.reminders.claimRun(reminder.id, nextDay, { owner: 'replica-b', at: nextDay })).toBe(
      true,
    );
  });

  it('gives each of 50 occurrences to exactly one of two replicas claiming them all at once', async () => {
    const reminder = await db.store.reminders.create(weekdays());
    const replica = await db.connect();
    const occurrences = Array.from({ length: 50 }, (_, day) => T0 + day * 86_400_000);
    const claimAll = (store: typeof replica, owner: string) =>
      Promise.all(occurrences.map((at) => store.reminders.claimRun(reminder.id, at, { owner, at })));
    const [here, there] = await Promise.all([claimAll(db.store, 'a'), claimAll(replica, 'b')]);
    expect(occurrences.filter((_, index) => here[index] === there[index])).toEqual([]);
  });

  it('does not claim an occurrence of a reminder deleted in the meantime', async () => {
    const reminder = await db.store.reminders.create(weekdays());
    await db.store.reminders.delete(ADA, reminder.id);
    expect(await db.store.reminders.claimRun(reminder.id, T0, { owner: 'replica-a', at: T0 })).toBe(false);
  });

  it('forgets old claimed occurrences so the table does not grow forever', async () => {
    const reminder = await db.store.reminders.create(weekdays());
    for (const day of [0, 1, 2]) {
      await db.store.reminders.claimRun(reminder.id, T0 + day * 86_400_000, { owner: 'a', at: T0 });
    }
    expect(await db.store.reminders.pruneRuns(T0 + 2 * 86_400_000)).toBe(2);
    // The occurrence that was kept is still claimed; a pruned one could be claimed again.
    expect(await db.store.reminders.claimRun(reminder.id, T0 + 2 * 86_400_000, { owner: 'b', at: T0 })).toBe(
      false,
    );
    expect(await db.store.reminders.claimRun(reminder.id, T0, { owner: 'b', at: T0 })).toBe(true);
  });
});
