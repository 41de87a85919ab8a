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
});
