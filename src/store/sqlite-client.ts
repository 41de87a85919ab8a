// SqlClient over better-sqlite3. better-sqlite3 is synchronous, which makes every single statement
// atomic for free; the only care needed is that an async transaction must not interleave with other
// callers' statements on the same connection, so every call is queued behind the running one.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlClient, SqlRow, SqlValue } from './sql-client.js';

const BUSY_TIMEOUT_MS = 5000;

export function openSqliteClient(path: string): SqlClient {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL lets a second process (a CLI, a backup) read while the bot writes; the busy timeout makes a
  // writer wait for another process's write instead of failing at once.
  if (!inMemory) db.pragma('journal_mode = WAL');
  // better-sqlite3 runs on the event loop, so the fsync that synchronous=FULL makes at every commit
  // blocked the whole bot for about a millisecond per write (1.1 ms against 0.07-0.18 ms per update
  // measured here): at a burst of 1,000 completions that alone held every reply back by seconds. In WAL
  // mode NORMAL syncs at checkpoints instead: the file never corrupts, and a commit is lost only if the
  // machine itself loses power or crashes (never when the bot's process dies), which at worst repeats
  // or drops the last moment's work, as docs/deploy.md says.
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');

  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };

  // The connection used inside a transaction: straight to the database, no queue.
  const direct: SqlClient = {
    dialect: 'sqlite',
    all: async <Row extends SqlRow>(sql: string, params: readonly SqlValue[] = []) =>
      prepare(sql).all(...params) as Row[],
    get: async <Row extends SqlRow>(sql: string, params: readonly SqlValue[] = []) =>
      prepare(sql).get(...params) as Row | undefined,
    run: async (sql, params = []) => ({ changes: prepare(sql).run(...params).changes }),
    exec: async (sql) => {
      db.exec(sql);
    },
    // Already inside a transaction: nested work simply joins it.
    transaction: (work) => work(direct),
    close: () => Promise.reject(new Error('close the store, not the transaction')),
  };

  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(task: () => Promise<T>): Promise<T> => {
    const result = queue.then(task);
    queue = result.catch(() => undefined);
    return result;
  };

  return {
    dialect: 'sqlite',
    all: (sql, params) => serialized(() => direct.all(sql, params)),
    get: (sql, params) => serialized(() => direct.get(sql, params)),
    run: (sql, params) => serialized(() => direct.run(sql, params)),
    exec: (sql) => serialized(() => direct.exec(sql)),
    transaction: (work) =>
      serialized(async () => {
        // IMMEDIATE takes the write lock up front, so two processes migrating the same file queue
        // behind each other instead of one failing halfway.
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work(direct);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw error;
        }
      }),
    close: () =>
      serialized(async () => {
        if (db.open) db.close();
      }),
  };
}
