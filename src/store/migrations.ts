// Versioned schema migrations, applied in order when the store opens and recorded in
// schema_migrations. Each migration is one SQL script both SQLite and PostgreSQL accept; the only
// words that differ between them (binary and auto-increment columns) come from ColumnTypes.
// Times are BIGINT epoch milliseconds and JSON is TEXT, which both databases store alike.
// Never edit a migration that has shipped: add a new one.
import { type SqlClient, type SqlDialect, StoreError } from './sql-client.js';

interface ColumnTypes {
  bytes: string;
  autoIncrementPrimaryKey: string;
}

const COLUMN_TYPES: Record<SqlDialect, ColumnTypes> = {
  sqlite: { bytes: 'BLOB', autoIncrementPrimaryKey: 'INTEGER PRIMARY KEY AUTOINCREMENT' },
  postgres: { bytes: 'BYTEA', autoIncrementPrimaryKey: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY' },
};

// Any fixed number names the lock; this one spells "pschat" in ASCII, unlikely to clash with another
// application's advisory locks on a shared server.
const MIGRATION_LOCK_ID = 0x707363686174;

export interface Migration {
  version: number;
  name: string;
  sql: (types: ColumnTypes) => string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'vault_entries',
    sql: (t) => `
      CREATE TABLE vault_entries (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        iv ${t.bytes} NOT NULL,
        auth_tag ${t.bytes} NOT NULL,
        ciphertext ${t.bytes} NOT NULL,
        paperspace_user_id TEXT NOT NULL,
        paperspace_email TEXT NOT NULL,
        paperspace_team_id TEXT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );
      CREATE INDEX vault_entries_key_id ON vault_entries (key_id);`,
  },
  {
    version: 2,
    name: 'audit_records',
    sql: (t) => `
      CREATE TABLE audit_records (
        id ${t.autoIncrementPrimaryKey},
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        action TEXT NOT NULL,
        resource_id TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error')),
        message TEXT,
        occurred_at BIGINT NOT NULL
      );
      CREATE INDEX audit_records_user ON audit_records (slack_team_id, slack_user_id, occurred_at);
      CREATE INDEX audit_records_occurred_at ON audit_records (occurred_at);`,
  },
  {
    version: 3,
    name: 'watches',
    sql: () => `
      CREATE TABLE watches (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        machine_name TEXT NOT NULL,
        target_state TEXT NOT NULL,
        channel TEXT NOT NULL,
        message_ts TEXT,
        thread_ts TEXT,
        created_at BIGINT NOT NULL,
        deadline_at BIGINT NOT NULL,
        last_state TEXT,
        timeline TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'done', 'failed', 'timed_out', 'gone')),
        detail TEXT,
        completed_at BIGINT,
        claimed_by TEXT,
        lease_until BIGINT
      );
      CREATE INDEX watches_status ON watches (status, deadline_at);
      CREATE INDEX watches_user ON watches (slack_team_id, slack_user_id, status);`,
  },
  {
    version: 4,
    name: 'reminders',
    sql: () => `
      CREATE TABLE reminders (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        label TEXT,
        channel TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX reminders_user ON reminders (slack_team_id, slack_user_id);
      CREATE TABLE reminder_runs (
        reminder_id TEXT NOT NULL REFERENCES reminders (id) ON DELETE CASCADE,
        scheduled_at BIGINT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (reminder_id, scheduled_at)
      );
      CREATE TABLE reminder_snoozes (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        reminder_id TEXT REFERENCES reminders (id) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        fire_at BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id, machine_id)
      );
      CREATE INDEX reminder_snoozes_fire_at ON reminder_snoozes (fire_at);`,
  },
  {
    version: 5,
    name: 'delegations',
    sql: () => `
      CREATE TABLE delegations (
        id TEXT PRIMARY KEY,
        delegation_id TEXT NOT NULL,
        access_token_id TEXT NOT NULL,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        message_ts TEXT,
        machine_ids TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        expired_notified_at BIGINT
      );
      CREATE INDEX delegations_expiry ON delegations (expires_at) WHERE expired_notified_at IS NULL;
      CREATE INDEX delegations_user ON delegations (slack_team_id, slack_user_id, expires_at);`,
  },
  {
    // One card tells one story: two active watches of it would post two completions in its thread.
    // Before the index existed, two requests about one card at once could both be stored; the newest
    // of them stays active and the older ones end as replaced, at the time the newest began.
    version: 6,
    name: 'one_active_watch_per_card',
    sql: () => `
      UPDATE watches SET status = 'failed', detail = 'replaced by a newer request on the same card',
        completed_at = (
          SELECT MAX(newest.created_at) FROM watches AS newest
          WHERE newest.status = 'active' AND newest.slack_team_id = watches.slack_team_id
            AND newest.channel = watches.channel AND newest.message_ts = watches.message_ts)
      WHERE status = 'active' AND message_ts IS NOT NULL AND EXISTS (
        SELECT 1 FROM watches AS newer
        WHERE newer.status = 'active' AND newer.slack_team_id = watches.slack_team_id
          AND newer.channel = watches.channel AND newer.message_ts = watches.message_ts
          AND (newer.created_at > watches.created_at
            OR (newer.created_at = watches.created_at AND newer.id > watches.id)));
      CREATE UNIQUE INDEX watches_active_card ON watches (slack_team_id, channel, message_ts)
        WHERE status = 'active' AND message_ts IS NOT NULL;`,
  },
  {
    // `/ps reminders` lists pending snoozes; a machine id there means nothing to the person who
    // clicked Snooze on a row that showed its name. Rows from before stay without one.
    version: 7,
    name: 'snooze_machine_name',
    sql: () => 'ALTER TABLE reminder_snoozes ADD COLUMN machine_name TEXT;',
  },
  {
    // The outcome of a finished watch waits here until it is posted: a replica that dies (or a Slack
    // that fails) between recording the outcome and posting it no longer loses the reply, since any
    // replica posts what is still due. Watches finished before this migration have nothing due.
    version: 8,
    name: 'watch_outcome_outbox',
    sql: () => `
      ALTER TABLE watches ADD COLUMN report TEXT;
      ALTER TABLE watches ADD COLUMN report_due_at BIGINT;
      CREATE INDEX watches_report_due ON watches (report_due_at) WHERE report_due_at IS NOT NULL;`,
  },
  {
    // Replicas lease people, not watches: one getMachines call answers all of a person's watches, so
    // two replicas splitting one person's watches would both pay for it. A replica counts the live
    // replicas (scheduler_replicas, renewed every tick) to take its fair share of the people.
    // delegations_expires_at serves the retention prune of long-expired shares.
    version: 9,
    name: 'poll_leases_by_person',
    sql: () => `
      CREATE TABLE watch_poll_leases (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        claimed_by TEXT,
        lease_until BIGINT,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );
      CREATE INDEX watch_poll_leases_owner ON watch_poll_leases (claimed_by);
      CREATE TABLE scheduler_replicas (
        replica_id TEXT PRIMARY KEY,
        alive_until BIGINT NOT NULL
      );
      CREATE INDEX delegations_expires_at ON delegations (expires_at);`,
  },
  {
    // Requests a person makes for what Paperspace lets only someone else do (a team administrator
    // creates, an owner powers), the standing grants an owner gives ("for the next N hours"), and the
    // approvals channel of a Paperspace team. A request moves out of 'open' once, by a conditional
    // UPDATE, so two approvers (or two replicas) clicking at once decide it once.
    version: 10,
    name: 'approval_requests',
    sql: () => `
      CREATE TABLE approval_requests (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        paperspace_team_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('create', 'start', 'stop', 'restart')),
        machine_id TEXT,
        machine_name TEXT,
        owner_id TEXT,
        details TEXT NOT NULL,
        channel TEXT,
        status TEXT NOT NULL CHECK (status IN ('open', 'approved', 'denied', 'withdrawn', 'expired', 'failed')),
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        decided_by TEXT,
        decided_at BIGINT,
        reason TEXT,
        messages TEXT NOT NULL
      );
      CREATE INDEX approval_requests_open ON approval_requests (status, expires_at);
      CREATE INDEX approval_requests_requester ON approval_requests (slack_team_id, requester_id);
      CREATE TABLE approval_grants (
        slack_team_id TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, owner_id, requester_id, machine_id)
      );
      CREATE TABLE approval_settings (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        channel TEXT,
        lifetime_ms BIGINT,
        set_by TEXT NOT NULL,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_team_id)
      );`,
  },
  {
    // What Paperspace's answers showed about who administers a team, for the legacy API, whose users
    // carry no role: a create it accepted (an administrator) or refused (a member). Create requests go
    // to the known administrators, and never to a known member.
    version: 11,
    name: 'approval_roles',
    sql: () => `
      CREATE TABLE approval_roles (
        slack_team_id TEXT NOT NULL,
        paperspace_user_id TEXT NOT NULL,
        is_admin INTEGER NOT NULL CHECK (is_admin IN (0, 1)),
        learned_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_user_id)
      );`,
  },
  {
    // Paperspace v1. A share on an API without resource delegations makes chosen teammates accessors
    // of the machines; the grants are kept so the scheduler can remove exactly them at expiry,
    // retrying a removal Paperspace refused (revoke_retry_at, also a lease between replicas) until
    // revoked_at. A watch keeps the event its operation answered with (event_id), to follow it.
    version: 12,
    name: 'v1_accessor_shares_and_watch_events',
    sql: () => `
      ALTER TABLE watches ADD COLUMN event_id TEXT;
      ALTER TABLE delegations ADD COLUMN accessor_grants TEXT;
      ALTER TABLE delegations ADD COLUMN revoked_at BIGINT;
      ALTER TABLE delegations ADD COLUMN revoke_failure TEXT;
      ALTER TABLE delegations ADD COLUMN revoke_retry_at BIGINT;
      CREATE INDEX delegations_revokes ON delegations (expires_at)
        WHERE accessor_grants IS NOT NULL AND revoked_at IS NULL;`,
  },
  {
    // Two guarantees a check in the application could not give once several requests (or replicas)
    // ran at once:
    // - slack_request_replays: the signatures (SHA-256 of) of the Slack requests already served, so a
    //   replay is refused whichever replica it reaches; the primary key makes the claim atomic.
    // - a person's reminders: one per schedule (a unique index; the duplicates a race stored before it
    //   are removed, keeping the oldest), and at most the limit, each holding a numbered slot below it
    //   that no two of the person's reminders can share. Reminders stored past the limit before keep
    //   slots above it, so no new one fits until enough are turned off.
    version: 13,
    name: 'request_replays_and_reminder_slots',
    sql: () => `
      CREATE TABLE slack_request_replays (
        signature_hash TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX slack_request_replays_expires_at ON slack_request_replays (expires_at);
      DELETE FROM reminders WHERE EXISTS (
        SELECT 1 FROM reminders older
        WHERE older.slack_team_id = reminders.slack_team_id
          AND older.slack_user_id = reminders.slack_user_id
          AND older.cron = reminders.cron
          AND older.timezone = reminders.timezone
          AND (older.created_at < reminders.created_at
            OR (older.created_at = reminders.created_at AND older.id < reminders.id))
      );
      CREATE UNIQUE INDEX reminders_schedule ON reminders (slack_team_id, slack_user_id, cron, timezone);
      ALTER TABLE reminders ADD COLUMN slot INTEGER;
      UPDATE reminders SET slot = (
        SELECT COUNT(*) FROM reminders older
        WHERE older.slack_team_id = reminders.slack_team_id
          AND older.slack_user_id = reminders.slack_user_id
          AND (older.created_at < reminders.created_at
            OR (older.created_at = reminders.created_at AND older.id < reminders.id))
      );
      CREATE UNIQUE INDEX reminders_slot ON reminders (slack_team_id, slack_user_id, slot);`,
  },
  {
    // The team digest: one per Paperspace team in a Slack workspace, set by an administrator whose key
    // lists the team's machines, posted on a cron in their time zone. Runs are claimed like reminder
    // runs, so with several replicas each digest is posted once.
    version: 14,
    name: 'team_digests',
    sql: () => `
      CREATE TABLE team_digests (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        label TEXT NOT NULL,
        set_by TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (slack_team_id, paperspace_team_id)
      );
      CREATE TABLE team_digest_runs (
        digest_id TEXT NOT NULL REFERENCES team_digests (id) ON DELETE CASCADE,
        scheduled_at BIGINT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (digest_id, scheduled_at)
      );`,
  },
  {
    // The cost guard: each person's threshold (slack_user_id '' holds the workspace default an
    // administrator set; a NULL threshold is "off"), the run of each machine it follows (when it began
    // running, and until when its owner chose to keep it running), the machines a person never wants to
    // hear about, and one row per alert. An alert's key is (machine, arming): the replica whose INSERT
    // lands posts it, so two replicas never post the same alert.
    version: 15,
    name: 'cost_alerts',
    sql: () => `
      CREATE TABLE cost_alert_settings (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        threshold_ms BIGINT,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );
      CREATE TABLE cost_alert_runs (
        machine_id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        running_since BIGINT NOT NULL,
        since_estimated INTEGER NOT NULL,
        kept_until BIGINT
      );
      CREATE TABLE cost_alert_exclusions (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id, machine_id)
      );
      CREATE TABLE cost_alerts (
        machine_id TEXT NOT NULL,
        arming BIGINT NOT NULL,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        posted_at BIGINT NOT NULL,
        PRIMARY KEY (machine_id, arming)
      );`,
  },
  {
    // The per-person limit on active watches, enforced by the database: each active watch holds a
    // numbered slot no other active watch of the person shares (counting first and inserting second let
    // concurrent requests past the limit). Watches already active take slots in the order they began.
    // And when a completion was last handed to Slack without an answer recorded, so that posting it
    // again (after a crash, or an answer that never came) says it may be a repeat.
    version: 16,
    name: 'watch_slots_and_report_sending',
    sql: () => `
      ALTER TABLE watches ADD COLUMN report_sent_at BIGINT;
      ALTER TABLE watches ADD COLUMN slot INTEGER;
      UPDATE watches SET slot = (
        SELECT COUNT(*) FROM watches older
        WHERE older.status = 'active'
          AND older.slack_team_id = watches.slack_team_id
          AND older.slack_user_id = watches.slack_user_id
          AND (older.created_at < watches.created_at
            OR (older.created_at = watches.created_at AND older.id < watches.id))
      ) WHERE status = 'active';
      CREATE UNIQUE INDEX watches_active_slot ON watches (slack_team_id, slack_user_id, slot)
        WHERE status = 'active';`,
  },
  {
    // power_claims: "this start, stop or restart of this machine is being sent", held for a few seconds
    // from before the Paperspace call, so two clicks arriving together send it once (power-claims.ts).
    // One row per machine of a workspace, replaced by the next claim.
    version: 17,
    name: 'power_claims',
    sql: () => `
      CREATE TABLE power_claims (
        slack_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id)
      );`,
  },
  {
    // slack_installations: the app installed by OAuth, one row per workspace, or per Enterprise Grid
    // organisation for an org-wide install (team_id ''); enterprise_id is '' outside Enterprise Grid.
    // The installation (bot token included) is sealed like vault_entries. slack_installation_teams: the
    // workspaces an org-wide install has served, so that work done later for a workspace's people (the
    // scheduler's posts) finds the organisation's token.
    version: 18,
    name: 'slack_installations',
    sql: (t) => `
      CREATE TABLE slack_installations (
        enterprise_id TEXT NOT NULL,
        team_id TEXT NOT NULL,
        is_enterprise_install INTEGER NOT NULL CHECK (is_enterprise_install IN (0, 1)),
        key_id TEXT NOT NULL,
        iv ${t.bytes} NOT NULL,
        auth_tag ${t.bytes} NOT NULL,
        ciphertext ${t.bytes} NOT NULL,
        installed_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (enterprise_id, team_id)
      );
      CREATE INDEX slack_installations_by_team ON slack_installations (team_id);
      CREATE TABLE slack_installation_teams (
        team_id TEXT PRIMARY KEY,
        enterprise_id TEXT NOT NULL,
        first_served_at BIGINT NOT NULL
      );
      CREATE INDEX slack_installation_teams_by_enterprise ON slack_installation_teams (enterprise_id);`,
  },
  {
    // workflow_step_settings: whether a person let Workflow Builder steps that name them act with their
    // key (/ps steps on). A step finds no row for someone who never chose: off, so a workflow someone
    // else built never acts for a person who did not agree to it. watches.function_execution_id: a
    // watch a Wait step started ends its step (functions.completeSuccess or completeError) instead of
    // posting, and like any watch survives restarts and is finished by one replica.
    version: 19,
    name: 'workflow_steps',
    sql: () => `
      ALTER TABLE watches ADD COLUMN function_execution_id TEXT;
      CREATE TABLE workflow_step_settings (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );`,
  },
  {
    // approval_requests.function_execution_id: a request a Workflow Builder "Request a machine" step
    // opened ends that step's run when it is decided (the machine created, or a sentence why not).
    // Kept with the request, so whichever replica handles the decision, before or after a restart,
    // can end the run.
    version: 20,
    name: 'approval_request_steps',
    sql: () => `ALTER TABLE approval_requests ADD COLUMN function_execution_id TEXT;`,
  },
  {
    // audit_records_resource: the spend report reads each machine's history (its create, an approval
    // that led to it) by resource id, newest first; without it every read scanned the whole audit
    // table, about 200 ms at a year's volume. approval_grants_expires_at: the daily prune finds the
    // standing grants that ran out without reading every grant.
    version: 21,
    name: 'audit_by_resource_and_grant_expiry',
    sql: () => `
      CREATE INDEX audit_records_resource ON audit_records (resource_id, occurred_at, id);
      CREATE INDEX approval_grants_expires_at ON approval_grants (expires_at);`,
  },
  {
    // row_messages: the last drawing of a message that lists machines in rows (a reminder, a
    // forgotten-machine alert, a team digest), kept once one of its rows was clicked, so that the watch
    // a Stop started can bring that row up to date when the machine is off. The bot cannot read a
    // message back from Slack (no history scope), and chat.update replaces every block. `version`
    // lets a writer whose update reached Slack late send the newer drawing after it. Pruned by
    // updated_at (retention).
    version: 22,
    name: 'row_messages',
    sql: () => `
      CREATE TABLE row_messages (
        slack_team_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        ts TEXT NOT NULL,
        kind TEXT NOT NULL,
        blocks TEXT NOT NULL,
        text TEXT NOT NULL,
        version BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, channel, ts)
      );
      CREATE INDEX row_messages_updated_at ON row_messages (updated_at);`,
  },
  {
    // channel_post_slots: when the next chat.postMessage in a channel may go, for the whole deployment.
    // Slack allows about one message a second per channel for the app, not per replica: each replica
    // claims its post's moment here (one upsert per post), so two replicas together keep the pace one
    // keeps alone. A slot in the past means "now"; pruned once it is (retention).
    version: 23,
    name: 'channel_post_slots',
    sql: () => `
      CREATE TABLE channel_post_slots (
        channel TEXT PRIMARY KEY,
        next_at BIGINT NOT NULL
      );`,
  },
  {
    // watches.claimed_by and lease_until mirrored each person's lease (watch_poll_leases) onto their
    // watches, for a reader to see which replica polls a watch; nothing in the bot read them, and
    // keeping them true cost every tick two updates over the watches table that, at 10,000 people,
    // took seconds under the completions' own writes. watchLeases.holderOf answers the question now.
    // cost_alert_runs_owner: each person's cost check ends the runs of machines their list no longer
    // shows, by owner; without it each check scanned every followed run (3 ms each at 10,000 people).
    version: 24,
    name: 'watch_lease_mirror_dropped_cost_runs_by_owner',
    sql: () => `
      ALTER TABLE watches DROP COLUMN claimed_by;
      ALTER TABLE watches DROP COLUMN lease_until;
      CREATE INDEX cost_alert_runs_owner ON cost_alert_runs (slack_team_id, slack_user_id);`,
  },
  {
    // Two lookups that read a whole team's rows to find a few. vault_entries_paperspace_user: a team
    // account's /ps list names the owners of its machines in Slack (vaultEntries.linkedIn), which read
    // every linked person of the team on each list. watches_active_machine: an operation sent for a
    // machine finishes its active watches (watches.supersede), which read every active watch of the
    // team. Found by reading every statement's query plan after the poll's read of its watches (by id)
    // turned out to scan every active watch.
    version: 25,
    name: 'owner_and_machine_lookups',
    sql: () => `
      CREATE INDEX vault_entries_paperspace_user ON vault_entries (slack_team_id, paperspace_user_id);
      CREATE INDEX watches_active_machine ON watches (slack_team_id, machine_id) WHERE status = 'active';`,
  },
];

/**
 * Brings the schema up to date and returns the versions it applied (none on a current database).
 * Refuses a database migrated by a newer build, or one whose history disagrees with this build's
 * list, rather than running against a schema it does not know.
 */
export async function migrate(
  client: SqlClient,
  now: () => number,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  // Several replicas may start at once. SQLite's BEGIN IMMEDIATE already lets one writer in at a
  // time; PostgreSQL runs transactions side by side, so there each one first takes an advisory lock,
  // held until it ends: the second replica waits, then finds the migration recorded and skips it.
  const underMigrationLock = <T>(work: (tx: SqlClient) => Promise<T>) =>
    client.transaction(async (tx) => {
      if (tx.dialect === 'postgres') await tx.run(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
      return work(tx);
    });
  await underMigrationLock((tx) =>
    tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version BIGINT PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`),
  );
  const appliedNow: number[] = [];
  for (const migration of migrations) {
    const applied = await underMigrationLock(async (tx) => {
      const history = await tx.all<{ version: number; name: string }>(
        'SELECT version, name FROM schema_migrations ORDER BY version',
      );
      checkHistory(history, migrations);
      if (history.some((row) => row.version === migration.version)) return false;
      await tx.exec(migration.sql(COLUMN_TYPES[client.dialect]));
      await tx.run('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
        migration.version,
        migration.name,
        now(),
      ]);
      return true;
    });
    if (applied) appliedNow.push(migration.version);
  }
  return appliedNow;
}

function checkHistory(history: { version: number; name: string }[], migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  for (const row of history) {
    const known = migrations.find((migration) => migration.version === row.version);
    if (known === undefined) {
      throw new StoreError(
        `The database has schema migration ${row.version} (${row.name}) but this build knows migrations ` +
          `up to ${latest} only: it was used by a newer version of the bot. Run that version, or restore a backup.`,
      );
    }
    if (known.name !== row.name) {
      throw new StoreError(
        `Schema migration ${row.version} was applied as "${row.name}" but this build calls it "${known.name}": ` +
          'the database belongs to a different build. Refusing to migrate it.',
      );
    }
  }
}
