// The bot's other housekeeping, run by its own scheduler on a fake clock: finished watches go after the
// keep period of their feature, claimed reminder and digest occurrences once replicas can no longer
// fire them. Each goes only past its keep period; the row just inside it stays.
import { afterEach, describe, expect, it } from 'vitest';
import { KEEP_REMINDER_RUNS_MS } from '../../../src/features/reminders/jobs.js';
import { KEEP_DIGEST_RUNS_MS } from '../../../src/features/spend/jobs.js';
import { KEEP_FINISHED_WATCHES_MS } from '../../../src/features/watches/jobs.js';
import type { Store } from '../../../src/store/store.js';
import { createTestSchema, postgresSkipReason, type TestSchema } from '../../store/postgres-test-database.js';
import { startTestBot, type TestBot, USERS } from '../../support/test-bot.js';

const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2026, 5, 1, 3, 0);
const ADA = { teamId: 'T0FAKE', userId: USERS.ada.slackId };

/** A watch of Ada's that finished at `finishedAt` and whose completion was posted. */
async function watchFinishedAt(store: Store, finishedAt: number, ts: string): Promise<string> {
  const watch = await store.watches.create({
    ...ADA,
    machineId: 'psgpu1',
    machineName: 'gpu-1',
    targetState: 'ready',
    channel: 'C0OPS',
    messageTs: ts,
    createdAt: finishedAt - 120_000,
    deadlineAt: finishedAt + 30 * 60_000,
    lastState: 'off',
  });
  await store.watches.complete(watch.id, { status: 'done', at: finishedAt, lastState: 'ready' });
  return watch.id;
}

const databases = [
  { name: 'SQLite', skipReason: undefined, schema: async (): Promise<TestSchema | undefined> => undefined },
  { name: 'PostgreSQL', skipReason: postgresSkipReason, schema: createTestSchema },
];

describe.each(databases)('the hourly housekeeping on $name', ({ skipReason, schema }) => {
  let bot: TestBot | undefined;
  let database: TestSchema | undefined;
  afterEach(async () => {
    await bot?.close();
    await database?.drop();
    bot = undefined;
    database = undefined;
  });

  it('deletes finished watches and claimed occurrences past their keep period, never those inside it', async (context) => {
    if (skipReason !== undefined) context.skip(skipReason);
    database = await schema();
    bot = await startTestBot({ now: () => NOW, ...(database ? { databaseUrl: database.url } : {}) });
    const { store } = bot;
    const pastWatch = await watchFinishedAt(store, NOW - KEEP_FINISHED_WATCHES_MS - 1, '1.000100');
    const insideWatch = await watchFinishedAt(store, NOW - KEEP_FINISHED_WATCHES_MS + DAY, '2.000100');
    const reminder = await store.reminders.create({
      ...ADA,
      cron: '0 19 * * 1-5',
      timezone: 'Europe/Berlin',
      label: null,
      channel: 'D0ADA',
      createdAt: NOW - 30 * DAY,
    });
    const digest = await store.teamDigests.put({
      teamId: ADA.teamId,
      paperspaceTeamId: 'te1',
      channel: 'C0SPEND',
      cron: '0 9 * * *',
      timezone: 'UTC',
      label: 'daily',
      setBy: ADA.userId,
      createdAt: NOW - 30 * DAY,
    });
    const claimed = { owner: 'replica-old', at: NOW - 30 * DAY };
    const reminderPast = NOW - KEEP_REMINDER_RUNS_MS - 1;
    const reminderInside = NOW - KEEP_REMINDER_RUNS_MS;
    const digestPast = NOW - KEEP_DIGEST_RUNS_MS - 1;
    const digestInside = NOW - KEEP_DIGEST_RUNS_MS;
    for (const at of [reminderPast, reminderInside]) await store.reminders.claimRun(reminder.id, at, claimed);
    for (const at of [digestPast, digestInside]) await store.teamDigests.claimRun(digest.id, at, claimed);

    await bot.scheduler.tick();

    expect(await store.watches.get(pastWatch)).toBeUndefined();
    expect(await store.watches.get(insideWatch)).toBeDefined();
    // A claim still kept refuses a second replica's claim of the occurrence (no second post); a
    // forgotten one is free again.
    const claimAgain = { owner: 'replica-new', at: NOW };
    expect(await store.reminders.claimRun(reminder.id, reminderPast, claimAgain)).toBe(true);
    expect(await store.reminders.claimRun(reminder.id, reminderInside, claimAgain)).toBe(false);
    expect(await store.teamDigests.claimRun(digest.id, digestPast, claimAgain)).toBe(true);
    expect(await store.teamDigests.claimRun(digest.id, digestInside, claimAgain)).toBe(false);
  });
});
