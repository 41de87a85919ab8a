// Versioned schema migrations, applied in order when the store opens and recorded in
// schema_migrations. The migrations themselves are one file each under migrations/, listed in order
// by migrations/index.ts; this module applies them. Each is one SQL script both SQLite and PostgreSQL
// accept; the only words that differ between them (binary and auto-increment columns) come from
// COLUMN_TYPES below. Times are BIGINT epoch milliseconds and JSON is TEXT, which both databases
// store alike. Never edit a migration that has shipped: add a new one.

import { MIGRATIONS } from './migrations/index.js';
import type { ColumnTypes, Migration } from './migrations/migration.js';
import { type SqlClient, type SqlDialect, StoreError } from './sql-client.js';

const COLUMN_TYPES: Record<SqlDialect, ColumnTypes> = {
  sqlite: { bytes: 'BLOB', autoIncrementPrimaryKey: 'INTEGER PRIMARY KEY AUTOINCREMENT' },
  postgres: { bytes: 'BYTEA', autoIncrementPrimaryKey: 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY' },
};

// Any fixed number names the lock; this one spells "pschat" in ASCII, unlikely to clash with another
// application's advisory locks on a shared server.
const MIGRATION_LOCK_ID = 0x707363686174;

// The store and the tests take the list from here, beside the function that applies it.
export { MIGRATIONS };

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
