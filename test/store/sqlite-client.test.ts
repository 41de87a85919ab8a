import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqlClient } from '../../src/store/sql-client.js';
import { openSqliteClient } from '../../src/store/sqlite-client.js';

describe('openSqliteClient', () => {
  let db: SqlClient;
  beforeEach(async () => {
    db = openSqliteClient(':memory:');
    await db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, data BLOB)');
  });
  afterEach(async () => {
    await db.close();
  });

  it('returns integers as numbers, blobs as Buffers and NULL as null', async () => {
    await db.run('INSERT INTO notes (id, body, data) VALUES (?, ?, ?)', [1, 'a', Buffer.from([0, 255])]);
    await db.run('INSERT INTO notes (id, body, data) VALUES (?, ?, ?)', [2, 'b', null]);
    expect(await db.all('SELECT * FROM notes ORDER BY id')).toEqual([
      { id: 1, body: 'a', data: Buffer.from([0, 255]) },
      { id: 2, body: 'b', data: null },
    ]);
  });

  it('reports how many rows a statement changed', async () => {
    await db.run("INSERT INTO notes (body) VALUES ('a'), ('b'), ('c')");
    expect(await db.run("UPDATE notes SET body = 'z' WHERE body <> 'a'")).toEqual({ changes: 2 });
    expect(await db.run("DELETE FROM notes WHERE body = 'nothing'")).toEqual({ changes: 0 });
  });

  it('commits a transaction that succeeds and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.run("INSERT INTO notes (body) VALUES ('kept')");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO notes (body) VALUES ('discarded')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
  });

  it('keeps other callers out of a running transaction, so its rollback cannot take their writes', async () => {
    let insideTransaction!: () => void;
    const started = new Promise<void>((resolve) => {
      insideTransaction = resolve;
    });
    const failing = db.transaction(async (tx) => {
      await tx.run("INSERT INTO notes (body) VALUES ('in the transaction')");
      insideTransaction();
      // Give the other caller every chance to run while the transaction is open.
      await new Promise((resolve) => setTimeout(resolve, 20));
      throw new Error('rolled back');
    });
    await started;
    const outside = db.run("INSERT INTO notes (body) VALUES ('outside')");
    await expect(failing).rejects.toThrow('rolled back');
    await outside;
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'outside' }]);
  });

  it('keeps working after a statement fails', async () => {
    await expect(db.run('INSERT INTO nowhere VALUES (1)')).rejects.toThrow(/no such table/);
    await db.run("INSERT INTO notes (body) VALUES ('still fine')");
    expect(await db.get('SELECT COUNT(*) AS count FROM notes')).toEqual({ count: 1 });
  });

  it('commits writes that arrive together as a group, each failing or succeeding on its own, in order', async () => {
    await db.exec('CREATE UNIQUE INDEX notes_body ON notes (body)');
    await db.run("INSERT INTO notes (id, body) VALUES (1, 'taken')");
    // Issued without waiting, as concurrent callers do: they share one commit.
    const writes = [
      db.run("INSERT INTO notes (id, body) VALUES (2, 'first')"),
      db.run("INSERT INTO notes (id, body) VALUES (3, 'taken')"),
      db.run("UPDATE notes SET body = 'first, renamed' WHERE id = 2"),
      db.run("DELETE FROM notes WHERE body = 'nothing'"),
    ];
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect(await Promise.all([writes[0], writes[2], writes[3]])).toEqual([
      { changes: 1 },
      { changes: 1 },
      { changes: 0 },
    ]);
    expect(await db.all('SELECT id, body FROM notes ORDER BY id')).toEqual([
      { id: 1, body: 'taken' },
      { id: 2, body: 'first, renamed' },
    ]);
  });
});

describe('openSqliteClient on a file', () => {
  let dir: string;
  let db: SqlClient;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sqlite-client-'));
    db = openSqliteClient(join(dir, 'bot.db'));
    await db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resolves a grouped write only once it is committed: another process sees it then', async () => {
    const other = new Database(join(dir, 'bot.db'), { readonly: true });
    try {
      const seenAtResolve: unknown[] = [];
      await Promise.all(
        ['a', 'b', 'c'].map((body) =>
          db.run('INSERT INTO notes (body) VALUES (?)', [body]).then(() => {
            seenAtResolve.push(other.prepare('SELECT COUNT(*) AS count FROM notes').get());
          }),
        ),
      );
      expect(seenAtResolve).toEqual([{ count: 3 }, { count: 3 }, { count: 3 }]);
    } finally {
      other.close();
    }
  });

  it('runs a grouped write before what was asked after it: a read, and a close', async () => {
    const written = db.run("INSERT INTO notes (body) VALUES ('before the read')");
    const read = db.all('SELECT body FROM notes');
    const lastWrite = db.run("INSERT INTO notes (body) VALUES ('before the close')");
    const closed = db.close();
    await Promise.all([written, lastWrite, closed]);
    expect(await read).toEqual([{ body: 'before the read' }, { body: 'before the close' }]);
    const reopened = new Database(join(dir, 'bot.db'), { readonly: true });
    try {
      expect(reopened.prepare('SELECT COUNT(*) AS count FROM notes').get()).toEqual({ count: 2 });
    } finally {
      reopened.close();
    }
  });

  it('fails the writes of a group when another process holds the write lock, and keeps working after', async () => {
    const other = new Database(join(dir, 'bot.db'), { timeout: 0 });
    other.exec('BEGIN IMMEDIATE');
    try {
      await db.exec('PRAGMA busy_timeout = 50');
      const outcomes = await Promise.allSettled([
        db.run("INSERT INTO notes (body) VALUES ('one')"),
        db.run("INSERT INTO notes (body) VALUES ('two')"),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
      expect((outcomes[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await Promise.all([
      db.run("INSERT INTO notes (body) VALUES ('three')"),
      db.run("INSERT INTO notes (body) VALUES ('four')"),
    ]);
    expect(await db.all('SELECT body FROM notes ORDER BY id')).toEqual([{ body: 'three' }, { body: 'four' }]);
  });
});
