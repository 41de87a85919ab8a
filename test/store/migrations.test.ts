import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../src/store/migrations.js';
import { openPostgresClient } from '../../src/store/postgres-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { openSqliteClient } from '../../src/store/sqlite-client.js';
import { openStore } from '../../src/store/store.js';
import { createVaultEntryRepository } from '../../src/store/vault-entries.js';
import { createWatchRepository } from '../../src/store/watches.js';
import { useTestSchema } from './postgres-test-database.js';

/** Every version this build knows, in order. */
const VERSIONS = MIGRATIONS.map((migration) => migration.version);

const SCHEMA_TABLES = [
  'approval_grants',
  'approval_requests',
  'approval_roles',
  'approval_settings',
  'audit_records',
  'budget_alerts',
  'budget_checks',
  'budgets',
  'channel_post_slots',
  'cost_alert_exclusions',
  'cost_alert_messages',
  'cost_alert_runs',
  'cost_alert_settings',
  'cost_alerts',
  'delegations',
  'machine_owners',
  'policy_claims',
  'policy_exemptions',
  'policy_extensions',
  'policy_rules',
  'power_claims',
  'received_requests',
  'reminder_runs',
  'reminder_snoozes',
  'reminders',
  'row_messages',
  'scheduler_replicas',
  'schema_migrations',
  'slack_installation_teams',
  'slack_installations',
  'slack_request_replays',
  'slackbot_proposals',
  'team_digest_runs',
  'team_digests',
  'vault_entries',
  'watch_poll_leases',
  'watches',
  'workflow_step_runs',
  'workflow_step_settings',
];

/**
 * Watches stored before migration 6, when two requests about one card at once could both be kept:
 * card 1 has three active watches (and a finished one), card 2 one, and two watches have no card.
 */
async function seedCardDuplicates(db: SqlClient): Promise<void> {
  const watches: Array<[id: string, messageTs: string | null, createdAt: number, status: string]> = [
    ['w-old', '111.1', 10, 'active'],
    ['w-mid', '111.1', 20, 'active'],
    ['w-new', '111.1', 30, 'active'],
    ['w-done', '111.1', 5, 'done'],
    ['w-other-card', '222.2', 15, 'active'],
    ['w-no-card-1', null, 10, 'active'],
    ['w-no-card-2', null, 20, 'active'],
  ];
  for (const [id, messageTs, createdAt, status] of watches) {
    await db.run(
      `INSERT INTO watches (id, slack_team_id, slack_user_id, machine_id, machine_name, target_state, channel,
         message_ts, created_at, deadline_at, timeline, status)
       VALUES (?, 'T1', 'U1', 'ps1', 'gpu-1', 'ready', 'C1', ?, ?, 999, '[]', ?)`,
      [id, messageTs, createdAt, status],
    );
  }
}

/** `db`, with the SQL of every `all` it runs kept in `statements` (to read their query plans). */
function recordingReads(db: SqlClient): { recording: SqlClient; statements: string[] } {
  const statements: string[] = [];
  const recording: SqlClient = {
    ...db,
    all: (sql, params) => {
      statements.push(sql);
      return db.all(sql, params);
    },
  };
  return { recording, statements };
}

/** After migration 6: the newest watch of card 1 is its only active one; the rest is untouched. */
async function expectOneActiveWatchPerCard(db: SqlClient): Promise<void> {
  expect(await db.all('SELECT id, status, completed_at, detail FROM watches ORDER BY id')).toEqual([
    { id: 'w-done', status: 'done', completed_at: null, detail: null },
    {
      id: 'w-mid',
      status: 'failed',
      completed_at: 30,
      detail: 'replaced by a newer request on the same card',
    },
    { id: 'w-new', status: 'active', completed_at: null, detail: null },
    { id: 'w-no-card-1', status: 'active', completed_at: null, detail: null },
    { id: 'w-no-card-2', status: 'active', completed_at: null, detail: null },
    {
      id: 'w-old',
      status: 'failed',
      completed_at: 30,
      detail: 'replaced by a newer request on the same card',
    },
    { id: 'w-other-card', status: 'active', completed_at: null, detail: null },
  ]);
  await expect(
    db.run(
      `INSERT INTO watches (id, slack_team_id, slack_user_id, machine_id, machine_name, target_state, channel,
         message_ts, created_at, deadline_at, timeline, status)
       VALUES ('w-second', 'T1', 'U1', 'ps1', 'gpu-1', 'ready', 'C1', '111.1', 40, 999, '[]', 'active')`,
    ),
  ).rejects.toThrow(/unique/i);
}

/** A snooze stored before migration 7, which adds its machine's name: old rows keep none. */
async function expectSnoozesKeptWithoutName(db: SqlClient): Promise<void> {
  await migrate(db, () => 1, MIGRATIONS.slice(0, 6));
  await db.run(
    `INSERT INTO reminder_snoozes (slack_team_id, slack_user_id, machine_id, reminder_id, channel, fire_at, created_at)
     VALUES ('T1', 'U1', 'ps1', NULL, 'D1', 100, 50)`,
  );
  expect(await migrate(db, () => 2, MIGRATIONS.slice(0, 7))).toEqual([7]);
  expect(await db.all('SELECT machine_id, machine_name, fire_at FROM reminder_snoozes')).toEqual([
    { machine_id: 'ps1', machine_name: null, fire_at: 100 },
  ]);
}

/**
 * Reminders a race stored before the reminder slots: Ada has the same schedule three times (the oldest
 * is kept) and two more. Slots are numbered from the oldest, and a second copy of a schedule or of a
 * slot is refused afterwards.
 */
async function expectRemindersDeduplicatedAndSlotted(db: SqlClient): Promise<void> {
  const slots = MIGRATIONS.findIndex((migration) => migration.name === 'request_replays_and_reminder_slots');
  await migrate(db, () => 1, MIGRATIONS.slice(0, slots));
  const rows: [string, string, number][] = [
    ['r-dup-2', '0 19 * * 1-5', 30],
    ['r-dup-1', '0 19 * * 1-5', 10],
    ['r-dup-3', '0 19 * * 1-5', 40],
    ['r-b', '0 8 * * *', 20],
    ['r-c', '0 9 * * *', 50],
  ];
  for (const [id, cron, createdAt] of rows) {
    await db.run(
      `INSERT INTO reminders (id, slack_team_id, slack_user_id, cron, timezone, label, channel, created_at)
       VALUES (?, 'T1', 'U1', ?, 'UTC', NULL, 'U1', ?)`,
      [id, cron, createdAt],
    );
  }
  expect(await migrate(db, () => 2, MIGRATIONS.slice(0, slots + 1))).toEqual([MIGRATIONS[slots]?.version]);
  expect(await db.all('SELECT id, slot FROM reminders ORDER BY slot')).toEqual([
    { id: 'r-dup-1', slot: 0 },
    { id: 'r-b', slot: 1 },
    { id: 'r-c', slot: 2 },
  ]);
  const insert = (id: string, cron: string, slot: number) =>
    db.run(
      `INSERT INTO reminders (id, slack_team_id, slack_user_id, cron, timezone, label, channel, created_at, slot)
       VALUES (?, 'T1', 'U1', ?, 'UTC', NULL, 'U1', 60, ?) ON CONFLICT DO NOTHING`,
      [id, cron, slot],
    );
  expect(await insert('r-again', '0 19 * * 1-5', 3)).toEqual({ changes: 0 });
  expect(await insert('r-same-slot', '0 10 * * *', 2)).toEqual({ changes: 0 });
  expect(await insert('r-d', '0 10 * * *', 3)).toEqual({ changes: 1 });
}

describe('migrations', () => {
  let directory: string;
  let client: SqlClient | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'migrations-test-'));
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    rmSync(directory, { recursive: true, force: true });
  });
  const open = () => {
    client = openSqliteClient(join(directory, 'bot.db'));
    return client;
  };
  const tables = async (db: SqlClient) =>
    (
      await db.all<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
    ).map((row) => row.name);

  it('are numbered 1, 2, 3... without gaps, so their order is unambiguous', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });

  it('create every table on an empty database and record each version with its time', async () => {
    const db = open();
    expect(await migrate(db, () => 1234)).toEqual(VERSIONS);
    expect(await tables(db)).toEqual(SCHEMA_TABLES);
    expect(await db.all('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')).toEqual(
      MIGRATIONS.map((migration) => ({ version: migration.version, name: migration.name, applied_at: 1234 })),
    );
  });

  it('are idempotent: reopening a migrated database applies nothing and keeps its data', async () => {
    const path = join(directory, 'bot.db');
    const first = await openStore(`sqlite:${path}`);
    await first.audit.record({ teamId: 'T1', userId: 'U1', action: 'machine.start', outcome: 'ok', at: 1 });
    await first.close();

    const db = open();
    expect(await migrate(db, () => 2)).toEqual([]);
    expect(await db.get('SELECT COUNT(*) AS count FROM schema_migrations')).toEqual({
      count: MIGRATIONS.length,
    });
    expect(await db.get('SELECT action FROM audit_records')).toEqual({ action: 'machine.start' });
  });

  it("serve the spend report's history of one machine from an index, not a scan of the audit table", async () => {
    const db = open();
    await migrate(db, () => 1);
    // The query AuditRepository.list runs for a team's records of one machine.
    const plan = await db.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN SELECT * FROM audit_records WHERE slack_team_id = ? AND resource_id = ?
       ORDER BY occurred_at DESC, id DESC LIMIT ?`,
      ['T1', 'psabc123', 50],
    );
    const details = plan.map((row) => row.detail).join('\n');
    expect(details).toContain('USING INDEX audit_records_resource (resource_id=?)');
    expect(details).not.toContain('TEMP B-TREE');
  });

  it("read a poll's watches by their ids, not by a scan of every active watch", async () => {
    const db = open();
    await migrate(db, () => 1);
    // The statement WatchRepository.listActiveByIds runs, as it runs it (watch-reads.ts gathers many
    // people's polls into one).
    const { recording, statements } = recordingReads(db);
    await createWatchRepository(recording).listActiveByIds(['w-1', 'w-2', 'w-3']);
    expect(statements).toHaveLength(1);
    const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statements[0]}`, [
      'w-1',
      'w-2',
      'w-3',
    ]);
    const details = plan.map((row) => row.detail).join('\n');
    // The primary key's index, one lookup per id; never watches_status, which holds every active watch.
    expect(details).toMatch(/SEARCH watches USING INDEX sqlite_autoindex_watches_1 \(id=\?\)/);
    expect(details).not.toContain('watches_status');
  });

  it("find a team's people by Paperspace id and a machine's active watches without reading the whole team", async () => {
    const db = open();
    await migrate(db, () => 1);
    const { recording, statements } = recordingReads(db);
    // The owners named on a team account's /ps list, and the watches an operation on a machine ends.
    await createVaultEntryRepository(recording).linkedIn('T1', ['u1', 'u2']);
    await createWatchRepository(recording).supersede({ teamId: 'T1', machineId: 'ps1', at: 1, detail: 'x' });
    const plans = await Promise.all(
      statements.map(async (sql) => {
        const parameters = Array.from(sql.matchAll(/\?/g), () => 'x');
        const plan = await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, parameters);
        return plan.map((row) => row.detail).join('\n');
      }),
    );
    expect(plans).toHaveLength(2);
    expect(plans[0]).toContain(
      'USING INDEX vault_entries_paperspace_user (slack_team_id=? AND paperspace_user_id=?)',
    );
    expect(plans[1]).toMatch(
      /USING (COVERING )?INDEX watches_active_machine \(slack_team_id=\? AND machine_id=\?\)/,
    );
  });

  it('apply only the migrations a database is missing', async () => {
    const db = open();
    expect(await migrate(db, () => 1, MIGRATIONS.slice(0, 2))).toEqual([1, 2]);
    expect(await tables(db)).toEqual(['audit_records', 'schema_migrations', 'vault_entries']);
    expect(await migrate(db, () => 2)).toEqual(VERSIONS.slice(2));
    expect(await tables(db)).toEqual(SCHEMA_TABLES);
  });

  it('refuse a database migrated by a newer build instead of running on an unknown schema', async () => {
    const db = open();
    await migrate(db, () => 1);
    await db.run(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from_the_future', 2)",
    );
    await expect(migrate(db, () => 3)).rejects.toThrow(
      `schema migration 99 (from_the_future) but this build knows migrations up to ${VERSIONS.at(-1)}`,
    );
  });

  it('refuse a history whose migration names differ from this build', async () => {
    const db = open();
    await migrate(db, () => 1);
    await db.run("UPDATE schema_migrations SET name = 'something_else' WHERE version = 3");
    await expect(migrate(db, () => 2)).rejects.toThrow(/migration 3 was applied as "something_else"/);
  });

  it('roll a failing migration back entirely, leaving no half-made table or history row', async () => {
    const db = open();
    const broken = [
      ...MIGRATIONS.slice(0, 1),
      { version: 2, name: 'broken', sql: () => 'CREATE TABLE half_made (id TEXT); CREATE TABLE oops (' },
    ];
    await expect(migrate(db, () => 1, broken)).rejects.toThrow();
    expect(await tables(db)).toEqual(['schema_migrations', 'vault_entries']);
    expect(await db.all('SELECT version FROM schema_migrations')).toEqual([{ version: 1 }]);
  });

  it('keep only the newest active watch of a card, then allow no second one', async () => {
    const db = open();
    await migrate(db, () => 1, MIGRATIONS.slice(0, 5));
    await seedCardDuplicates(db);
    expect(await migrate(db, () => 2, MIGRATIONS.slice(0, 6))).toEqual([6]);
    await expectOneActiveWatchPerCard(db);
  });

  it('keep the snoozes stored before machine names were, without a name', async () => {
    await expectSnoozesKeptWithoutName(open());
  });

  it("keep the oldest of a person's identical reminders and give each a slot of its own", async () => {
    await expectRemindersDeduplicatedAndSlotted(open());
  });

  it('run when the store opens, creating the directory of a new database file', async () => {
    const path = join(directory, 'nested', 'data', 'bot.db');
    const store = await openStore(`sqlite:${path}`);
    await store.ping();
    await store.close();
    expect(existsSync(path)).toBe(true);
  });
});

describe('migrations on PostgreSQL', () => {
  const schema = useTestSchema();
  const clients: SqlClient[] = [];
  const open = () => {
    const client = openPostgresClient(schema.url);
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });
  const tables = async (db: SqlClient) =>
    (
      await db.all<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name',
      )
    ).map((row) => row.table_name);

  it('create every table on an empty schema and record each version with its time', async () => {
    const db = open();
    expect(await migrate(db, () => 1234)).toEqual(VERSIONS);
    expect(await tables(db)).toEqual(SCHEMA_TABLES);
    expect(await db.all('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')).toEqual(
      MIGRATIONS.map((migration) => ({ version: migration.version, name: migration.name, applied_at: 1234 })),
    );
    expect(await migrate(db, () => 5678)).toEqual([]);
  });

  it('apply each migration once when several replicas start at the same moment', async () => {
    const replicas = [open(), open(), open(), open()];
    const applied = await Promise.all(replicas.map((replica) => migrate(replica, () => 1)));
    expect(applied.flat().sort((x, y) => x - y)).toEqual(VERSIONS);
    expect(await tables(open())).toEqual(SCHEMA_TABLES);
  });

  it('keep only the newest active watch of a card, then allow no second one', async () => {
    const db = open();
    await migrate(db, () => 1, MIGRATIONS.slice(0, 5));
    await seedCardDuplicates(db);
    expect(await migrate(db, () => 2, MIGRATIONS.slice(0, 6))).toEqual([6]);
    await expectOneActiveWatchPerCard(db);
  });

  it('keep the snoozes stored before machine names were, without a name', async () => {
    await expectSnoozesKeptWithoutName(open());
  });

  it("keep the oldest of a person's identical reminders and give each a slot of its own", async () => {
    await expectRemindersDeduplicatedAndSlotted(open());
  });

  it('roll a failing migration back entirely, its tables included', async () => {
    const db = open();
    const broken = [
      ...MIGRATIONS.slice(0, 1),
      { version: 2, name: 'broken', sql: () => 'CREATE TABLE half_made (id TEXT); CREATE TABLE oops (' },
    ];
    await expect(migrate(db, () => 1, broken)).rejects.toThrow(/syntax error/);
    expect(await tables(db)).toEqual(['schema_migrations', 'vault_entries']);
    expect(await db.all('SELECT version FROM schema_migrations')).toEqual([{ version: 1 }]);
  });

  it('store binary columns as BYTEA and number audit records by identity', async () => {
    const db = open();
    await migrate(db, () => 1);
    const columns = await db.all(
      `SELECT table_name, column_name, data_type, is_identity FROM information_schema.columns
       WHERE table_schema = current_schema() AND (data_type = 'bytea' OR is_identity = 'YES')
       ORDER BY table_name, ordinal_position`,
    );
    expect(columns).toEqual([
      { table_name: 'audit_records', column_name: 'id', data_type: 'bigint', is_identity: 'YES' },
      { table_name: 'slack_installations', column_name: 'iv', data_type: 'bytea', is_identity: 'NO' },
      { table_name: 'slack_installations', column_name: 'auth_tag', data_type: 'bytea', is_identity: 'NO' },
      { table_name: 'slack_installations', column_name: 'ciphertext', data_type: 'bytea', is_identity: 'NO' },
      { table_name: 'vault_entries', column_name: 'iv', data_type: 'bytea', is_identity: 'NO' },
      { table_name: 'vault_entries', column_name: 'auth_tag', data_type: 'bytea', is_identity: 'NO' },
      { table_name: 'vault_entries', column_name: 'ciphertext', data_type: 'bytea', is_identity: 'NO' },
    ]);
  });
});
