// The bot's records of whose each machine is (v1 names no owner): an assignment replaces what was
// there, a claim takes only a machine nobody holds (one of many simultaneous claims, from two
// connections, wins), lookups stay within their workspace, and migration 026 fills the table from
// the audit trail: a machine made for a requester is the requester's, one created through the bot its
// creator's. On SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecordedOwner } from '../../src/store/machine-owners.js';
import { MIGRATIONS, migrate } from '../../src/store/migrations.js';
import { openPostgresClient } from '../../src/store/postgres-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { openSqliteClient } from '../../src/store/sqlite-client.js';
import { useTestSchema } from './postgres-test-database.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const owner = (
  userId: string,
  basis: RecordedOwner['basis'] = 'claimed',
  machineId = 'ps1',
): RecordedOwner => ({
  machineId,
  userId,
  paperspaceUserId: `u1${userId.toLowerCase()}`,
  basis,
  setBy: userId,
  setAt: 100,
});

describe.each(storeFactories)('machine owners on $name', (factory) => {
  const db = useFreshStore(factory);

  it('answers the recorded owners of the machines asked about, within their workspace only', async () => {
    await db.store.machineOwners.record('T1', owner('U_MAYA', 'created', 'ps1'));
    await db.store.machineOwners.record('T2', owner('U_OTHER', 'created', 'ps2'));
    const owners = await db.store.machineOwners.ownersOf('T1', ['ps1', 'ps2', 'ps3']);
    expect([...owners.keys()]).toEqual(['ps1']);
    expect(owners.get('ps1')).toEqual(owner('U_MAYA', 'created', 'ps1'));
  });

  it('replaces an owner on an assignment, and forgets a destroyed machine', async () => {
    await db.store.machineOwners.record('T1', owner('U_SAM', 'claimed'));
    await db.store.machineOwners.record('T1', { ...owner('U_LEE', 'assigned'), setBy: 'U_MAYA', setAt: 200 });
    expect((await db.store.machineOwners.ownersOf('T1', ['ps1'])).get('ps1')).toMatchObject({
      userId: 'U_LEE',
      basis: 'assigned',
      setBy: 'U_MAYA',
      setAt: 200,
    });
    await db.store.machineOwners.forget('T1', 'ps1');
    expect((await db.store.machineOwners.ownersOf('T1', ['ps1'])).size).toBe(0);
  });

  it('gives one of twenty simultaneous claims, from two connections, and names the winner to the rest', async () => {
    const other = await db.connect();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).machineOwners.claim('T1', owner(`U${i}`)),
      ),
    );
    expect(results.filter((result) => result.claimed)).toHaveLength(1);
    const named = new Set(results.flatMap((result) => (result.claimed ? [] : [result.owner.userId])));
    expect(named.size).toBe(1);
    const [winner] = named;
    expect((await db.store.machineOwners.ownersOf('T1', ['ps1'])).get('ps1')?.userId).toBe(winner);
  });

  it('answers many machines at once, beyond one statement’s parameters', async () => {
    const ids = Array.from({ length: 1200 }, (_, i) => `ps${i}`);
    await db.store.machineOwners.record('T1', owner('U_SAM', 'created', 'ps1100'));
    const owners = await db.store.machineOwners.ownersOf('T1', ids);
    expect([...owners.keys()]).toEqual(['ps1100']);
  });
});

const BEFORE = MIGRATIONS.findIndex((migration) => migration.name === 'machine_owners');

/** Audit records and requests as they stood before migration 026, then 026 itself. */
async function expectBackfilled(db: SqlClient): Promise<void> {
  await migrate(db, () => 1, MIGRATIONS.slice(0, BEFORE));
  await db.run(
    `INSERT INTO vault_entries (slack_team_id, slack_user_id, key_id, iv, auth_tag, ciphertext,
       paperspace_user_id, paperspace_email, paperspace_team_id, created_at, updated_at)
     VALUES ('T1', 'U_SAM', 'k1', ?, ?, ?, 'u1sam', 'sam@example.com', 'te1', 1, 1)`,
    [Buffer.from('iv'), Buffer.from('tag'), Buffer.from('sealed')],
  );
  await db.run(
    `INSERT INTO approval_requests (id, slack_team_id, requester_id, kind, details, status, created_at,
       expires_at, messages)
     VALUES ('r1', 'T1', 'U_SAM', 'create', '{}', 'approved', 10, 20, '[]')`,
  );
  const audit = (
    user: string,
    action: string,
    machine: string | null,
    outcome: string,
    message: string | null,
    at: number,
  ) =>
    db.run(
      `INSERT INTO audit_records (slack_team_id, slack_user_id, action, resource_id, outcome, message, occurred_at)
       VALUES ('T1', ?, ?, ?, ?, ?, ?)`,
      [user, action, machine, outcome, message, at],
    );
  // Maya approved Sam's request: psmade is Sam's, though Maya's key created it.
  await audit('U_MAYA', 'approval.create', 'psmade', 'ok', 'approved request r1 of U_SAM', 30);
  await audit('U_MAYA', 'machine.create', 'psmade', 'ok', null, 30);
  // Maya created psmine herself; a failed create and a create with no machine leave nothing.
  await audit('U_MAYA', 'machine.create', 'psmine', 'ok', null, 40);
  await audit('U_MAYA', 'machine.create', 'psfail', 'error', 'Paperspace refused', 50);
  await audit('U_MAYA', 'machine.create', null, 'ok', null, 60);

  expect(await migrate(db, () => 2, MIGRATIONS.slice(0, BEFORE + 1))).toEqual([BEFORE + 1]);
  const rows = await db.all<Record<string, unknown>>(
    `SELECT machine_id, owner_user_id, owner_paperspace_user_id, basis, set_by, set_at
       FROM machine_owners ORDER BY machine_id`,
  );
  expect(rows.map((row) => ({ ...row, set_at: Number(row.set_at) }))).toEqual([
    {
      machine_id: 'psmade',
      owner_user_id: 'U_SAM',
      owner_paperspace_user_id: 'u1sam',
      basis: 'requested',
      set_by: 'U_MAYA',
      set_at: 30,
    },
    {
      machine_id: 'psmine',
      owner_user_id: 'U_MAYA',
      owner_paperspace_user_id: null,
      basis: 'created',
      set_by: 'U_MAYA',
      set_at: 40,
    },
  ]);
}

describe('migration 026 on SQLite', () => {
  let directory: string;
  let client: SqlClient | undefined;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'machine-owners-'));
  });
  afterEach(async () => {
    await client?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('fills the owners from approved requests first, then from creates', async () => {
    client = openSqliteClient(join(directory, 'bot.db'));
    await expectBackfilled(client);
  });
});

describe('migration 026 on PostgreSQL', () => {
  const schema = useTestSchema();
  let client: SqlClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('fills the owners from approved requests first, then from creates', async () => {
    client = openPostgresClient(schema.url);
    await expectBackfilled(client);
  });
});
