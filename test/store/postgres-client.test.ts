import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describePostgresUrl,
  openPostgresClient,
  toPostgresPlaceholders,
} from '../../src/store/postgres-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { postgresServerVersion, postgresSkipReason, useTestSchema } from './postgres-test-database.js';

describe('the PostgreSQL server of TEST_DATABASE_URL', () => {
  // Under CI this fails when TEST_DATABASE_URL is missing or the server does not answer, so a CI run
  // cannot pass without having run the PostgreSQL suites.
  it.skipIf(postgresSkipReason !== undefined)('answers', async () => {
    expect(await postgresServerVersion()).toMatch(/^PostgreSQL \d+/);
  });
});

describe('toPostgresPlaceholders', () => {
  it('numbers the ? placeholders $1, $2... in order', () => {
    expect(toPostgresPlaceholders('UPDATE t SET a = ?, b = COALESCE(?, b) WHERE id = ? LIMIT ?')).toBe(
      'UPDATE t SET a = $1, b = COALESCE($2, b) WHERE id = $3 LIMIT $4',
    );
  });

  it.each([
    ["SELECT 'why?' AS q, ?", "SELECT 'why?' AS q, $1"],
    ["SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1"],
    ["SELECT E'\\'?', ?", "SELECT E'\\'?', $1"],
    ['SELECT "odd?column", ?', 'SELECT "odd?column", $1'],
    ['SELECT "a""?", ?', 'SELECT "a""?", $1'],
    ['SELECT ? -- really?\n, ?', 'SELECT $1 -- really?\n, $2'],
    ['SELECT /* a /* nested? */ comment? */ ?', 'SELECT /* a /* nested? */ comment? */ $1'],
    ['SELECT $$dollar?$$, ?', 'SELECT $$dollar?$$, $1'],
    ['SELECT $fn$ $$ ? $$ $fn$, ?', 'SELECT $fn$ $$ ? $$ $fn$, $1'],
  ])('leaves a ? that is text alone: %s', (sql, expected) => {
    expect(toPostgresPlaceholders(sql)).toBe(expected);
  });

  it('treats a backslash in an ordinary string as a character, as PostgreSQL does', () => {
    expect(toPostgresPlaceholders("SELECT 'C:\\', ?")).toBe("SELECT 'C:\\', $1");
  });
});

describe('describePostgresUrl', () => {
  it('names the user, host and database but never the password', () => {
    expect(describePostgresUrl('postgres://bot:s3cret@db.internal:6432/bot?sslmode=require')).toBe(
      'bot@db.internal:6432/bot',
    );
  });
});

describe('openPostgresClient against a server that does not answer', () => {
  let server: Server;
  const sockets = new Set<Socket>();
  beforeEach(async () => {
    // Accepts connections and says nothing, like a firewall that swallows packets.
    server = createServer((socket) => {
      sockets.add(socket);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    server.close();
    await once(server, 'close');
  });

  it('fails after the connection timeout instead of waiting forever', async () => {
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    const client = openPostgresClient(`postgres://bot:pw@127.0.0.1:${address.port}/bot`, {
      connectionTimeoutMs: 100,
    });
    try {
      await expect(client.get('SELECT 1')).rejects.toThrow(/timeout/i);
    } finally {
      await client.close();
    }
  });
});

describe('openPostgresClient', () => {
  const schema = useTestSchema();
  let db: SqlClient;
  beforeEach(async () => {
    db = openPostgresClient(schema.url);
    await db.exec('CREATE TABLE notes (id BIGINT PRIMARY KEY, body TEXT NOT NULL, data BYTEA)');
  });
  afterEach(async () => {
    await db?.close();
  });

  it('says it speaks PostgreSQL', () => {
    expect(db.dialect).toBe('postgres');
  });

  it('returns BIGINT as numbers, BYTEA as Buffers and NULL as null', async () => {
    await db.run('INSERT INTO notes (id, body, data) VALUES (?, ?, ?)', [1, 'a', Buffer.from([0, 255])]);
    await db.run('INSERT INTO notes (id, body, data) VALUES (?, ?, ?)', [1_736_150_400_000, 'b', null]);
    expect(await db.all('SELECT * FROM notes ORDER BY id')).toEqual([
      { id: 1, body: 'a', data: Buffer.from([0, 255]) },
      { id: 1_736_150_400_000, body: 'b', data: null },
    ]);
    expect(await db.get('SELECT COUNT(*) AS count FROM notes')).toEqual({ count: 2 });
  });

  it('refuses a BIGINT that a JavaScript number cannot hold exactly rather than rounding it', async () => {
    await db.run('INSERT INTO notes (id, body) VALUES (?, ?)', ['9007199254740993', 'too big']);
    await expect(db.all('SELECT id FROM notes')).rejects.toThrow(/BIGINT 9007199254740993/);
  });

  it('passes parameters, not text: a ? inside a literal stays a question mark', async () => {
    await db.run("INSERT INTO notes (id, body) VALUES (?, 'what? ' || ?)", [1, "O'Brien; DROP TABLE notes"]);
    expect(await db.get('SELECT body FROM notes WHERE id = ?', [1])).toEqual({
      body: "what? O'Brien; DROP TABLE notes",
    });
  });

  it('reports how many rows a statement changed', async () => {
    await db.run("INSERT INTO notes (id, body) VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    expect(await db.run("UPDATE notes SET body = 'z' WHERE body <> ?", ['a'])).toEqual({ changes: 2 });
    expect(await db.run('DELETE FROM notes WHERE body = ?', ['nothing'])).toEqual({ changes: 0 });
  });

  it('commits a transaction that succeeds and rolls back one that throws', async () => {
    await db.transaction(async (tx) => {
      await tx.run("INSERT INTO notes (id, body) VALUES (1, 'kept')");
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO notes (id, body) VALUES (2, 'discarded')");
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'kept' }]);
  });

  it('keeps a transaction on one connection, so its rollback never takes other callers’ writes', async () => {
    let insideTransaction!: () => void;
    const started = new Promise<void>((resolve) => {
      insideTransaction = resolve;
    });
    let outsideDone!: () => void;
    const outsideWritten = new Promise<void>((resolve) => {
      outsideDone = resolve;
    });
    const failing = db.transaction(async (tx) => {
      await tx.run("INSERT INTO notes (id, body) VALUES (1, 'in the transaction')");
      insideTransaction();
      // The other caller commits its own write while this transaction is still open.
      await outsideWritten;
      expect(await tx.all('SELECT body FROM notes ORDER BY id')).toEqual([
        { body: 'in the transaction' },
        { body: 'outside' },
      ]);
      throw new Error('rolled back');
    });
    await started;
    await db.run("INSERT INTO notes (id, body) VALUES (2, 'outside')");
    outsideDone();
    await expect(failing).rejects.toThrow('rolled back');
    expect(await db.all('SELECT body FROM notes')).toEqual([{ body: 'outside' }]);
  });

  it('reports a transaction whose failed statement was caught, instead of pretending it committed', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO notes (id, body) VALUES (1, 'lost')");
        await tx.run('INSERT INTO nowhere VALUES (1)').catch(() => undefined);
      }),
    ).rejects.toThrow(/rolled back because one of its statements failed/);
    expect(await db.all('SELECT body FROM notes')).toEqual([]);
  });

  it('refuses statements on a transaction that has ended', async () => {
    const escaped = await db.transaction(async (tx) => tx);
    await expect(escaped.run("INSERT INTO notes (id, body) VALUES (1, 'late')")).rejects.toThrow(
      /transaction has ended/,
    );
    expect(await db.all('SELECT body FROM notes')).toEqual([]);
  });

  it('keeps working after a statement fails', async () => {
    await expect(db.run('INSERT INTO nowhere VALUES (1)')).rejects.toThrow(/"nowhere" does not exist/);
    await db.run("INSERT INTO notes (id, body) VALUES (1, 'still fine')");
    expect(await db.get('SELECT COUNT(*) AS count FROM notes')).toEqual({ count: 1 });
  });

  it('waits for running statements when closed, then refuses new ones', async () => {
    const slow = db.get('SELECT pg_sleep(0.05) AS slept, 1 AS done');
    await db.close();
    await expect(slow).resolves.toMatchObject({ done: 1 });
    await expect(db.get('SELECT 1')).rejects.toThrow(/connection is closed/);
    await expect(db.close()).resolves.toBeUndefined();
  });
});
