import { describe, expect, it } from 'vitest';
import { type NewReminder, ReminderRefusedError } from '../../src/store/reminders.js';
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

  it('stores no more than the limit when sixteen requests from several replicas race', async () => {
    const replicas = [db.store, await db.connect(), await db.connect(), await db.connect()];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, minute) =>
        replicas[minute % replicas.length]?.reminders.create(weekdays({ cron: `${minute} 19 * * 1-5` }), 10),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(refusals).toHaveLength(6);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(ReminderRefusedError);
      expect((refusal as ReminderRefusedError).reason).toBe('full');
    }
    expect(await db.store.reminders.listByUser(ADA)).toHaveLength(10);
  });

  it('stores one of four identical reminders made at once, and names it to the others', async () => {
    const replicas = [db.store, await db.connect(), await db.connect(), await db.connect()];
    const outcomes = await Promise.allSettled(
      replicas.map((replica) => replica.reminders.create(weekdays(), 10)),
    );
    const stored = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(stored).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      expect(outcome.reason).toMatchObject({ reason: 'duplicate', detail: { existingId: stored[0]?.id } });
    }
    expect(await db.store.reminders.listByUser(ADA)).toHaveLength(1);
  });

  it('counts only the person whose reminders they are against the limit', async () => {
    for (let minute = 0; minute < 3; minute += 1)
      await db.store.reminders.create(weekdays({ cron: `${minute} 19 * * *` }), 3);
    await expect(db.store.reminders.create(weekdays({ cron: '9 19 * * *' }), 3)).rejects.toMatchObject({
      reason: 'full',
      detail: { count: 3 },
    });
    await expect(
      db.store.reminders.create(weekdays({ ...BOB, cron: '9 19 * * *' }), 3),
    ).resolves.toMatchObject(BOB);
    // A reminder turned off frees its slot.
    const [first] = await db.store.reminders.listByUser(ADA);
    await db.store.reminders.delete(ADA, first?.id ?? '');
    await expect(db.store.reminders.create(weekdays({ cron: '9 19 * * *' }), 3)).resolves.toMatchObject(ADA);
  });

  it('creates a reminder without a label', async () => {
    const reminder = await db.store.reminders.create(weekdays({ label: undefined }));
    expect(reminder.label).toBeNull();
  });

  it("lists one person's reminders and everyone's, oldest first", async () => {
    const late = await db.store.reminders.create(weekdays({ createdAt: T0 + 10 }));
    const early = await db.store.reminders.create(weekdays({ cron: '0 18 * * 1-5', createdAt: T0 }));
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
