// The daily prune against a real database: what is past its retention goes, everything else stays.
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../../src/config.js';
import {
  KEEP_ROW_MESSAGES_MS,
  KEEP_STEP_RUNS_MS,
  retentionJobs,
} from '../../../src/features/retention/jobs.js';
import { createLogger } from '../../../src/logger.js';
import type { SchedulerJob } from '../../../src/scheduler/job.js';
import { openPostgresClient } from '../../../src/store/postgres-client.js';
import { openSqliteClient } from '../../../src/store/sqlite-client.js';
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

/** A request for a create Sam made `daysAgo` days before NOW; decided by Ada a minute later unless `open`. */
async function requestMade(
  store: Store,
  daysAgo: number,
  decision: 'approved' | 'denied' | 'expired' | 'open',
) {
  const createdAt = NOW - daysAgo * DAY;
  const expiresAt = createdAt + DAY;
  const request = await store.approvals.create({
    teamId: 'T1',
    requesterId: 'U_SAM',
    paperspaceTeamId: 'te1',
    kind: 'create',
    machineId: null,
    machineName: `sam-${daysAgo}-${decision}`,
    ownerId: null,
    details: { params: { machineName: `sam-${daysAgo}-${decision}`, machineType: 'C4' } },
    channel: 'C_ML',
    createdAt,
    expiresAt,
  });
  if (decision === 'expired') {
    await store.approvals.decide(request.id, { status: 'expired', by: 'expiry', at: expiresAt });
  } else if (decision !== 'open') {
    await store.approvals.decide(request.id, { status: decision, by: 'U_ADA', at: createdAt + 60_000 });
  }
  return request;
}

/** Ada's standing grant letting Sam power `machineId` until `expiresAt`. */
const grantUntil = (store: Store, machineId: string, expiresAt: number) =>
  store.approvals.grant({ teamId: 'T1', ownerId: 'U_ADA', requesterId: 'U_SAM', machineId, expiresAt });

/**
 * Rows in each table, read on a connection of its own: what the prune is for is the disk, and a row
 * past its retention that no query answers any more is still a row.
 */
async function rowsIn(url: string, tables: readonly string[]): Promise<Record<string, number>> {
  const target = parseDatabaseUrl(url);
  if ('error' in target) throw new Error(target.error);
  const db =
    target.kind === 'postgres' ? openPostgresClient(target.connectionString) : openSqliteClient(target.path);
  try {
    const rows: Record<string, number> = {};
    for (const table of tables) {
      const count = await db.get<{ rows: number | string }>(`SELECT COUNT(*) AS rows FROM ${table}`);
      rows[table] = Number(count?.rows);
    }
    return rows;
  } finally {
    await db.close();
  }
}

/** A reminder Ada got, its row clicked: the copy kept of the message, last redrawn at `redrawnAt`. */
async function reminderClicked(store: Store, ts: string, firstAt: number, redrawnAt = firstAt) {
  const ref = { teamId: 'T1', channel: 'D0ADA', ts };
  const row = (text: string) => ({ type: 'section' as const, text: { type: 'mrkdwn' as const, text } });
  const current = { blocks: [row('*gpu-1* is running')], text: 'Still running: gpu-1' };
  for (const at of new Set([firstAt, redrawnAt])) {
    await store.rowMessages.redraw(
      ref,
      { kind: 'reminder', current },
      () => ({ blocks: [row(`*gpu-1* snoozed at ${at}`)], text: 'Still running: gpu-1' }),
      at,
    );
  }
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

  it('deletes approval requests decided longer ago than the audit retention, never an open one', async () => {
    const approvedLongAgo = await requestMade(db.store, 200, 'approved');
    const deniedLongAgo = await requestMade(db.store, 181, 'denied');
    const expiredLongAgo = await requestMade(db.store, 190, 'expired');
    // Open past its expiry: the expiry job has yet to close it (and edit its messages), so it stays.
    const openLongAgo = await requestMade(db.store, 200, 'open');
    const deniedRecently = await requestMade(db.store, 179, 'denied');
    const openNow = await requestMade(db.store, 0, 'open');
    await pruneJob(db.store, () => NOW).tick();
    for (const gone of [approvedLongAgo, deniedLongAgo, expiredLongAgo]) {
      expect(await db.store.approvals.get(gone.id)).toBeUndefined();
    }
    for (const kept of [openLongAgo, deniedRecently, openNow]) {
      expect(await db.store.approvals.get(kept.id)).toBeDefined();
    }
  });

  it('deletes standing grants that ran out longer ago than the share retention, never a running one', async () => {
    await grantUntil(db.store, 'ps-old', NOW - 31 * DAY);
    await grantUntil(db.store, 'ps-recent', NOW - 29 * DAY);
    await grantUntil(db.store, 'ps-running', NOW + 3_600_000);
    await pruneJob(db.store, () => NOW).tick();
    // grantedBy answers only for a grant still running at the time asked; asking at its last moment
    // shows whether the row is still there.
    const grantedAt = (machineId: string, at: number) =>
      db.store.approvals.grantedBy('T1', 'U_SAM', machineId, at);
    expect(await grantedAt('ps-old', NOW - 31 * DAY - 1)).toBeUndefined();
    expect(await grantedAt('ps-recent', NOW - 29 * DAY - 1)).toBe('U_ADA');
    expect(await grantedAt('ps-running', NOW)).toBe('U_ADA');
  });

  it('deletes alert claims of runs that are over, posted longer ago than the share retention', async () => {
    const alerts = db.store.costAlerts;
    const ADA = { teamId: 'T1', userId: 'U_ADA' };
    const posted = (daysAgo: number) => NOW - daysAgo * DAY;
    // Stopped long ago: no run is followed, so the claim can never stop a post again.
    await alerts.claimAlert('ps-stopped', posted(40), ADA, posted(31));
    // Stopped, but alerted recently: kept for the retention.
    await alerts.claimAlert('ps-stopped-lately', posted(29), ADA, posted(29));
    // Still running since its alert 60 days ago: the claim is what keeps it from a second alert.
    await alerts.beginRun({
      machineId: 'ps-running',
      owner: ADA,
      runningSince: posted(61),
      sinceEstimated: false,
    });
    await alerts.claimAlert('ps-running', posted(61), ADA, posted(60));
    // Kept running after its first alert and alerted again: the first arming is over, the second not.
    await alerts.beginRun({
      machineId: 'ps-kept',
      owner: ADA,
      runningSince: posted(50),
      sinceEstimated: false,
    });
    await alerts.claimAlert('ps-kept', posted(50), ADA, posted(49));
    await alerts.keep('ps-kept', posted(40));
    await alerts.claimAlert('ps-kept', posted(40), ADA, posted(40));

    await pruneJob(db.store, () => NOW).tick();

    // A claim still there refuses a second claim (no second post); a pruned one is free again.
    const stillClaimed = async (machineId: string, arming: number) =>
      !(await alerts.claimAlert(machineId, arming, ADA, NOW));
    expect(await stillClaimed('ps-running', posted(61))).toBe(true);
    expect(await stillClaimed('ps-kept', posted(40))).toBe(true);
    expect(await stillClaimed('ps-stopped-lately', posted(29))).toBe(true);
    expect(await stillClaimed('ps-stopped', posted(40))).toBe(false);
    expect(await stillClaimed('ps-kept', posted(50))).toBe(false);
  });

  it('deletes power claims that have run out, never one still held', async () => {
    const claim = (machineId: string, expiresAt: number) =>
      db.store.powerClaims.claim({
        teamId: 'T1',
        machineId,
        operation: 'stop',
        userId: 'U_ADA',
        at: expiresAt - 30_000,
        expiresAt,
      });
    await claim('ps-done', NOW - 1);
    await claim('ps-stopping', NOW + 10_000);
    await pruneJob(db.store, () => NOW).tick();
    expect(await rowsIn(db.url, ['power_claims'])).toEqual({ power_claims: 1 });
    // The claim still held still refuses Sam's stop of the same machine, sent moments after Ada's.
    const sams = await db.store.powerClaims.claim({
      teamId: 'T1',
      machineId: 'ps-stopping',
      operation: 'stop',
      userId: 'U_SAM',
      at: NOW,
      expiresAt: NOW + 30_000,
    });
    expect(sams.claimed).toBe(false);
  });

  it('deletes kept copies of messages last redrawn over a week ago, never one clicked since', async () => {
    const ago = (ms: number) => NOW - ms;
    await reminderClicked(db.store, '1.000100', ago(KEEP_ROW_MESSAGES_MS + 1));
    await reminderClicked(db.store, '2.000100', ago(KEEP_ROW_MESSAGES_MS - DAY));
    // Drawn a month ago, clicked again yesterday: its last redraw is what counts.
    await reminderClicked(db.store, '3.000100', ago(30 * DAY), ago(DAY));
    await pruneJob(db.store, () => NOW).tick();
    const kept = async (ts: string) =>
      (await db.store.rowMessages.find({ teamId: 'T1', channel: 'D0ADA', ts })) !== undefined;
    expect([await kept('1.000100'), await kept('2.000100'), await kept('3.000100')]).toEqual([
      false,
      true,
      true,
    ]);
  });

  it('removes from every table it covers one row just past its retention, and keeps the one just inside', async () => {
    const { auditDays, delegationDays } = RETENTION;
    const ADA = { teamId: 'T1', userId: 'U_ADA' };
    await auditAt(db.store, NOW - auditDays * DAY - 1, 'machine.stop');
    await auditAt(db.store, NOW - auditDays * DAY, 'machine.start');
    await shareExpiringAt(db.store, NOW - delegationDays * DAY - 1, true);
    await shareExpiringAt(db.store, NOW - delegationDays * DAY, true);
    await requestMade(db.store, auditDays + 1, 'approved');
    await requestMade(db.store, auditDays - 1, 'denied');
    await grantUntil(db.store, 'ps-past', NOW - delegationDays * DAY - 1);
    await grantUntil(db.store, 'ps-inside', NOW - delegationDays * DAY);
    await db.store.costAlerts.claimAlert('ps-past', NOW - 40 * DAY, ADA, NOW - delegationDays * DAY - 1);
    await db.store.costAlerts.claimAlert('ps-inside', NOW - 40 * DAY, ADA, NOW - delegationDays * DAY);
    for (const [machineId, expiresAt] of [
      ['ps-past', NOW - 1],
      ['ps-inside', NOW],
    ] as const) {
      await db.store.powerClaims.claim({
        teamId: 'T1',
        machineId,
        operation: 'start',
        userId: 'U_ADA',
        at: expiresAt - 30_000,
        expiresAt,
      });
    }
    await reminderClicked(db.store, '1.000100', NOW - KEEP_ROW_MESSAGES_MS - 1);
    await reminderClicked(db.store, '2.000100', NOW - KEEP_ROW_MESSAGES_MS);
    // A channel whose next post slot ended a moment ago, and one whose slot is still ahead.
    await db.store.postSlots.claim('C_PAST', NOW - 1_001, 1_000);
    await db.store.postSlots.claim('C_AHEAD', NOW, 1_000);
    for (const [executionId, at] of [
      ['Fx-past', NOW - KEEP_STEP_RUNS_MS - 1],
      ['Fx-inside', NOW - KEEP_STEP_RUNS_MS],
    ] as const) {
      await db.store.workflowStepRuns.claim({ teamId: 'T1', executionId, at });
    }
    const tables = [
      'audit_records',
      'delegations',
      'approval_requests',
      'approval_grants',
      'cost_alerts',
      'power_claims',
      'row_messages',
      'channel_post_slots',
      'workflow_step_runs',
    ];
    expect(await rowsIn(db.url, tables)).toEqual(Object.fromEntries(tables.map((table) => [table, 2])));

    await pruneJob(db.store, () => NOW).tick();

    expect(await rowsIn(db.url, tables)).toEqual(Object.fromEntries(tables.map((table) => [table, 1])));
  });

  it('deletes a backlog larger than one delete statement takes, all in one prune', async () => {
    // The first prune after an upgrade meets a year of rows; the job deletes them 5,000 at a time.
    const backlog = 5_050;
    const old = Array.from({ length: backlog }, (_, index) => NOW - 200 * DAY + index);
    for (let start = 0; start < old.length; start += 500) {
      await Promise.all(old.slice(start, start + 500).map((at) => auditAt(db.store, at, 'machine.start')));
    }
    await auditAt(db.store, NOW - DAY, 'machine.stop');
    await pruneJob(db.store, () => NOW).tick();
    expect(await rowsIn(db.url, ['audit_records'])).toEqual({ audit_records: 1 });
  }, 60_000);

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
