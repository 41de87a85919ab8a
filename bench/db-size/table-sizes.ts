// Rows and bytes of every table of the bot's database, indexes included, read on a connection of its
// own beside the store's: SQLite's page statistics (dbstat: each table's and each of its indexes'
// pages), PostgreSQL's pg_total_relation_size (table, indexes and TOAST).
import { parseDatabaseUrl } from '../../src/config.js';
import { openPostgresClient } from '../../src/store/postgres-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { openSqliteClient } from '../../src/store/sqlite-client.js';

export interface TableSize {
  rows: number;
  bytes: number;
}

function connect(url: string): SqlClient {
  const target = parseDatabaseUrl(url);
  if ('error' in target) throw new Error(target.error);
  return target.kind === 'postgres'
    ? openPostgresClient(target.connectionString)
    : openSqliteClient(target.path);
}

async function tableNames(db: SqlClient): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(
          `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`,
        )
      : await db.all<{ name: string }>(
          `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
        );
  return rows.map((row) => row.name);
}

async function bytesOf(db: SqlClient, table: string): Promise<number> {
  if (db.dialect === 'sqlite') {
    const row = await db.get<{ bytes: number | null }>(
      `SELECT SUM(pgsize) AS bytes FROM dbstat
       WHERE name IN (SELECT name FROM sqlite_master WHERE tbl_name = ?)`,
      [table],
    );
    return Number(row?.bytes ?? 0);
  }
  const row = await db.get<{ bytes: string }>('SELECT pg_total_relation_size(?::regclass) AS bytes', [table]);
  return Number(row?.bytes ?? 0);
}

/** Every table of the database at `url`, by name. */
export async function tableSizes(url: string): Promise<Map<string, TableSize>> {
  const db = connect(url);
  try {
    const sizes = new Map<string, TableSize>();
    for (const table of await tableNames(db)) {
      // Table names come from the database's own catalogue, not from input.
      const count = await db.get<{ rows: number | string }>(`SELECT COUNT(*) AS rows FROM ${table}`);
      sizes.set(table, { rows: Number(count?.rows ?? 0), bytes: await bytesOf(db, table) });
    }
    return sizes;
  } finally {
    await db.close();
  }
}
