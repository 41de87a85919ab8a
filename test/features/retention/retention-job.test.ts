// The daily prune against a real database: what is past its retention goes, everything else stays.
import { describe, expect, it } from 'vitest';
import { retentionJobs } from '../../../src/features/retention/jobs.js';
import { createLogger } from '../../../src/logger.js';
import type { SchedulerJob } from '../../../src/scheduler/job.js';
import type { Store } from '../../../src/store/store.js';
import { storeFactories, useFreshStore } from '../../store/store-factories.js';

const DAY = 24 * 60 * 60_000;
const NOW = Date.UTC(2026, 5, 1, 3, 0);
const RETENTION = { auditDays: 180, delegationDays: 30 };

function pruneJob(store: Store, now: () => number): SchedulerJob {
  const [job] = retentionJobs({
    store,
    now,
    logger: createLogger({ level: 'silent' }),
    retention: RETENTION,
  });
  if (job === undefined) throw new Error('the retention feature has no job');
  return job;
}

const auditAt = (store: Store, at: number, action: string) =>
  store.audit.record({ teamId: 'T1', userId: 'U_ADA', action, outcome: 'ok', at });

async function shareExpiringAt(store: Store, expiresAt: number, marked: boolean) {
  const share = await store.delegations.create({
    teamId: 'T1',
    userId: 'U_ADA',
    delegationId: String(expiresAt),
    accessTokenId: 'atk_1',
    channel: 'C_ML',
    machineIds: ['psgpu1'],
    createdAt: expiresAt - 4 * 3_600_000,
    expiresAt,
  });
  if (marked) await store.delegations.markExpired(share.id, expiresAt + 60_000);
  return share;
}

describe.each(storeFactories)('the retention job on $name', (factory) => {
  const db = useFreshStore(factory);

  it('deletes audit records older than the retention and keeps the rest', async () => {
    await auditAt(db.store, NOW - 400 * DAY, 'machine.start');
    await auditAt(db.store, NOW - 180 * DAY - 1, 'machine.stop');
    await auditAt(db.store, NOW - 180 * DAY, 'machine.restart');
    await auditAt(db.store, NOW - DAY, 'machine.destroy');
    await pruneJob(db.store, () => NOW).tick();
    const kept = await db.store.audit.list({ limit: 10 });
    expect(kept.map((record) => record.action)).toEqual(['machine.destroy', 'machine.restart']);
  });

  it('deletes shares that expired and were marked long ago, never a running or unmarked one', async () => {
    const old = await shareExpiringAt(db.store, NOW - 31 * DAY, true);
    const oldUnmarked = await shareExpiringAt(db.store, NOW - 31 * DAY, false);
    const recent = await shareExpiringAt(db.store, NOW - 29 * DAY, true);
    const running = await shareExpiringAt(db.store, NOW + 3_600_000, false);
    await pruneJob(db.store, () => NOW).tick();
    expect(await db.store.delegations.get(old.id)).toBeUndefined();
    for (const kept of [oldUnmarked, recent, running]) {
      expect(await db.store.delegations.get(kept.id)).toBeDefined();
    }
  });

  it('prunes once a day, not on every tick', async () => {
    let now = NOW;
    const job = pruneJob(db.store, () => now);
    await job.tick();
    await auditAt(db.store, NOW - 200 * DAY, 'machine.start');
    now += DAY - 1;
    await job.tick();
    expect(await db.store.audit.list({ limit: 10 })).toHaveLength(1);
    now += 1;
    await job.tick();
    expect(await db.store.audit.list({ limit: 10 })).toEqual([]);
  });
});
