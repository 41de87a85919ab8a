// SqlClient over better-sqlite3. better-sqlite3 is synchronous, which makes every single statement
// atomic for free; the only care needed is that an async transaction must not interleave with other
// callers' statements on the same connection, so every call is queued behind the running one.
//
// Writes made outside a transaction are committed in groups: every run() made in one turn of the event
// loop joins one group, committed as one transaction. A commit writes every page the statement touched
// (the row and each index) to the WAL, so a burst of single-statement commits writes the same pages
// over and over. Each caller still learns its own statement's outcome, and only once its group is
// committed: a resolved run() is as durable as an autocommit.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { SqlClient, SqlRow, SqlValue } from './sql-client.js';

const BUSY_TIMEOUT_MS = 5000;

/**
 * Every connection this process opened, with its prepared statements, kept reachable for the life of
 * the process even after close(). Node 24.19 and later make a native object wrapper's destructor
 * require a JavaScript context, and better-sqlite3 12 wraps Database and Statement that way: when the
 * garbage collector frees one outside a context (an idle-time or teardown collection), Node aborts
 * the process ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook). A wrapper that is
 * never garbage is never finalised. close() still frees SQLite's own memory; what stays is a small
 * JavaScript object per connection, one in production. better-sqlite3 13 (Node-API) ends the problem,
 * but needs Node-API 10, which Node 20 (still the CI machine's Node) lacks.
 */
const openedConnections: { db: Database.Database; statements: Map<string, Database.Statement> }[] = [];

export function openSqliteClient(path: string): SqlClient {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL lets a second process (a CLI, a backup) read while the bot writes; the busy timeout makes a
  // writer wait for another process's write instead of failing at once.
  // Pragmas go through exec(): db.pragma() prepares a statement object the caller then drops (see
  // openedConnections for why none may be dropped).
  if (!inMemory) db.exec('PRAGMA journal_mode = WAL');
  // better-sqlite3 runs on the event loop, so the fsync that synchronous=FULL makes at every commit
  // would block the whole bot for longer than the write itself, and a burst of completions would hold
  // every reply back behind those syncs. In WAL
  // mode NORMAL syncs at checkpoints instead: the file never corrupts, and a commit is lost only if the
  // machine itself loses power or crashes (never when the bot's process dies), which at worst repeats
  // or drops the last moment's work, as docs/deploy.md says.
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.exec('PRAGMA foreign_keys = ON');

  const statements = new Map<string, Database.Statement>();
  openedConnections.push({ db, statements });
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

  /** The writes waiting for the next group commit; undefined when none is queued. */
  let group: PendingWrite[] | undefined;
  const run = (sql: string, params: readonly SqlValue[] = []) =>
    new Promise<{ changes: number }>((resolve, reject) => {
      if (group === undefined) {
        const writes: PendingWrite[] = [];
        group = writes;
        // Takes its place in the queue now, so that every call made after this write (a read, a
        // transaction, close()) still runs after it. It then waits for the event loop's check phase,
        // gathering the writes of every callback that ran in this turn (each Paperspace answer, each
        // Slack answer), and commits them together.
        void serialized(async () => {
          await new Promise<void>((gathered) => setImmediate(gathered));
          group = undefined;
          commitGroup(db, prepare, writes);
        });
      }
      group.push({ sql, params, resolve, reject });
    });

  return {
    dialect: 'sqlite',
    all: (sql, params) => serialized(() => direct.all(sql, params)),
    get: (sql, params) => serialized(() => direct.get(sql, params)),
    run,
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

interface PendingWrite {
  sql: string;
  params: readonly SqlValue[];
  resolve: (result: { changes: number }) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs `writes` in one transaction and settles each once it is committed. A statement that fails
 * (a constraint) fails alone: SQLite undoes that statement and the transaction goes on. An error
 * that ends the transaction itself (a full disk) fails the statements run before it, which it undid,
 * and the rest are run in a transaction of their own.
 */
function commitGroup(
  db: Database.Database,
  prepare: (sql: string) => Database.Statement,
  writes: readonly PendingWrite[],
): void {
  if (writes.length === 1) {
    const [write] = writes as [PendingWrite];
    try {
      write.resolve({ changes: prepare(write.sql).run(...write.params).changes });
    } catch (error) {
      write.reject(error);
    }
    return;
  }
  let done: { write: PendingWrite; changes: number }[] = [];
  const failAll = (error: unknown) => {
    for (const { write } of done) write.reject(error);
    done = [];
  };
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    for (const write of writes) write.reject(error);
    return;
  }
  for (const write of writes) {
    if (!db.inTransaction) {
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        write.reject(error);
        continue;
      }
    }
    try {
      done.push({ write, changes: prepare(write.sql).run(...write.params).changes });
    } catch (error) {
      write.reject(error);
      if (!db.inTransaction) failAll(error);
    }
  }
  try {
    if (db.inTransaction) db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    failAll(error);
    return;
  }
  for (const { write, changes } of done) write.resolve({ changes });
}
