import { describe, expect, it } from 'vitest';
import type { Snooze } from '../../src/store/reminder-snoozes.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const ADA = { teamId: 'T1', userId: 'U_ADA' };
const BOB = { teamId: 'T1', userId: 'U_BOB' };
const T0 = Date.UTC(2025, 0, 6, 18, 0);
const HOUR = 3_600_000;

const snoozeOf = (overrides: Partial<Snooze> = {}): Snooze => ({
  ...ADA,
  machineId: 'psgpu1',
  machineName: 'gpu-1',
  reminderId: null,
  channel: 'D_ADA',
  fireAt: T0 + HOUR,
  createdAt: T0,
  ...overrides,
});

describe.each(storeFactories)('reminder snoozes on $name', (factory) => {
  const db = useFreshStore(factory);
  const adasReminder = () =>
    db.store.reminders.create({
      ...ADA,
      cron: '0 19 * * *',
      timezone: 'UTC',
      channel: 'D_ADA',
      createdAt: T0,
    });

  it('keeps a snooze until it is due', async () => {
    await db.store.snoozes.snooze(snoozeOf());
    expect(await db.store.snoozes.due(T0 + HOUR - 1, 10)).toEqual([]);
    expect(await db.store.snoozes.due(T0 + HOUR, 10)).toEqual([snoozeOf()]);
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([snoozeOf()]);
  });

  it('links a snooze to the reminder it came from', async () => {
    const reminder = await adasReminder();
    await db.store.snoozes.snooze(snoozeOf({ reminderId: reminder.id }));
    expect((await db.store.snoozes.listByUser(ADA))[0]?.reminderId).toBe(reminder.id);
  });

  it('keeps a snooze clicked on the message of a reminder deleted since, without the link', async () => {
    await db.store.snoozes.snooze(snoozeOf({ reminderId: 'deleted-reminder' }));
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([snoozeOf({ reminderId: null })]);
  });

  it('moves a pending snooze when the same machine is snoozed again', async () => {
    await db.store.snoozes.snooze(snoozeOf());
    const moved = snoozeOf({ machineName: 'gpu-1-renamed', fireAt: T0 + 2 * HOUR, createdAt: T0 + 10 });
    await db.store.snoozes.snooze(moved);
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([moved]);
  });

  it('keeps separate snoozes per person and per machine, due ones earliest first', async () => {
    await db.store.snoozes.snooze(snoozeOf({ fireAt: T0 + 3 }));
    await db.store.snoozes.snooze(snoozeOf({ machineId: 'pscpu', fireAt: T0 + 1 }));
    await db.store.snoozes.snooze(snoozeOf({ ...BOB, fireAt: T0 + 2 }));
    const due = await db.store.snoozes.due(T0 + 10, 2);
    expect(due.map((snooze) => `${snooze.userId}:${snooze.machineId}`)).toEqual([
      'U_ADA:pscpu',
      'U_BOB:psgpu1',
    ]);
  });

  it('cancels a pending snooze when the user keeps the machine running', async () => {
    await db.store.snoozes.snooze(snoozeOf());
    expect(await db.store.snoozes.cancel(ADA, 'psgpu1')).toBe(true);
    expect(await db.store.snoozes.cancel(ADA, 'psgpu1')).toBe(false);
    expect(await db.store.snoozes.due(T0 + 10 * HOUR, 10)).toEqual([]);
  });

  it("cancels all of one person's snoozes, linked to a reminder or not, and nobody else's", async () => {
    const reminder = await adasReminder();
    await db.store.snoozes.snooze(snoozeOf({ reminderId: reminder.id }));
    await db.store.snoozes.snooze(snoozeOf({ machineId: 'pscpu' }));
    await db.store.snoozes.snooze(snoozeOf({ ...BOB }));
    expect(await db.store.snoozes.cancelAllOf(ADA)).toBe(2);
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([]);
    expect(await db.store.snoozes.listByUser(BOB)).toEqual([snoozeOf({ ...BOB })]);
    expect(await db.store.snoozes.cancelAllOf(ADA)).toBe(0);
  });

  it('hands a due snooze to exactly one replica', async () => {
    await db.store.snoozes.snooze(snoozeOf());
    const replica = await db.connect();
    const [seenHere] = await db.store.snoozes.due(T0 + HOUR, 10);
    const [seenThere] = await replica.snoozes.due(T0 + HOUR, 10);
    if (seenHere === undefined || seenThere === undefined)
      throw new Error('both replicas should see the snooze');
    const results = await Promise.all([db.store.snoozes.take(seenHere), replica.snoozes.take(seenThere)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db.store.snoozes.due(T0 + HOUR, 10)).toEqual([]);
  });

  it('does not take a snooze the user moved after it was read as due', async () => {
    await db.store.snoozes.snooze(snoozeOf());
    const [due] = await db.store.snoozes.due(T0 + HOUR, 10);
    if (due === undefined) throw new Error('the snooze should be due');
    await db.store.snoozes.snooze(snoozeOf({ fireAt: T0 + 3 * HOUR }));
    expect(await db.store.snoozes.take(due)).toBe(false);
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([snoozeOf({ fireAt: T0 + 3 * HOUR })]);
  });

  it('hands each of 30 due snoozes to exactly one of two replicas taking them all at once', async () => {
    for (let index = 0; index < 30; index++)
      await db.store.snoozes.snooze(snoozeOf({ machineId: `m${index}` }));
    const replica = await db.connect();
    const due = await db.store.snoozes.due(T0 + HOUR, 100);
    expect(due).toHaveLength(30);
    const takeAll = (store: typeof replica) => Promise.all(due.map((snooze) => store.snoozes.take(snooze)));
    const [here, there] = await Promise.all([takeAll(db.store), takeAll(replica)]);
    expect(due.filter((_, index) => here[index] === there[index])).toEqual([]);
    expect(await db.store.snoozes.listByUser(ADA)).toEqual([]);
  });
});
