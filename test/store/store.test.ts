import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../src/store/sql-client.js';
import { openStore } from '../../src/store/store.js';
import { storeFactories, useFreshStore } from './store-factories.js';

describe.each(storeFactories)('store on $name', (factory) => {
  const db = useFreshStore(factory);

  it(`opens a ${factory.dialect} store`, () => {
    expect(db.store.dialect).toBe(factory.dialect);
  });

  it('answers ping while open and rejects it once closed', async () => {
    const store = await db.connect();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });

  it('lets a second connection see what the first one wrote', async () => {
    await db.store.audit.record({ teamId: 'T1', userId: 'U1', action: 'machine.stop', outcome: 'ok', at: 5 });
    const other = await db.connect();
    expect(await other.audit.list({ limit: 10 })).toEqual([
      expect.objectContaining({ action: 'machine.stop' }),
    ]);
  });
});

describe('openStore', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'open-store-test-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('accepts the parsed DATABASE_URL as well as its text', async () => {
    const store = await openStore({ kind: 'sqlite', path: join(directory, 'a.db') });
    expect(store.dialect).toBe('sqlite');
    await store.close();
  });

  it('works on an in-memory SQLite database', async () => {
    const store = await openStore('sqlite::memory:');
    await store.ping();
    await store.close();
  });

  it('names the PostgreSQL server it cannot reach, without the password', async () => {
    // Accepts connections and hangs up at once, as a server that is shutting down does.
    const server = createServer((socket) => socket.destroy());
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
    try {
      const opening = openStore(`postgres://bot:s3cret-pw@127.0.0.1:${address.port}/bot`);
      await expect(opening).rejects.toThrow(StoreError);
      await expect(opening).rejects.toThrow(
        `Cannot connect to the PostgreSQL database bot@127.0.0.1:${address.port}/bot: `,
      );
      await expect(opening).rejects.not.toThrow(/s3cret-pw/);
    } finally {
      server.close();
    }
  });

  it('rejects an unusable DATABASE_URL with the reason', async () => {
    await expect(openStore('mysql://localhost/bot')).rejects.toThrow(/DATABASE_URL has an unknown scheme/);
  });

  it('names the file it could not open', async () => {
    const notADirectory = join(directory, 'file');
    writeFileSync(notADirectory, 'x');
    await expect(openStore(`sqlite:${join(notADirectory, 'bot.db')}`)).rejects.toThrow(
      /Cannot open the SQLite database .*file[/\\]bot\.db/,
    );
  });

  it('refuses a file that is not a SQLite database, leaving it as it was', async () => {
    const path = join(directory, 'notes.txt');
    const notes = 'these are my notes, not a database\n'.repeat(50);
    writeFileSync(path, notes);
    await expect(openStore(`sqlite:${path}`)).rejects.toThrow(/not a database/);
    expect(readFileSync(path, 'utf8')).toBe(notes);
  });
});
