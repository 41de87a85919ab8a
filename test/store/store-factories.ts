// The databases the store suites run against. Every suite is a describe.each over these factories,
// so a PostgreSQL adapter joins by adding a factory here (one that creates a throwaway database).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';

export interface FreshDatabase {
  /** DATABASE_URL of the database, for a separate process to open. */
  url: string;
  store: Store;
  /** Opens a second connection to the same database, as another replica would. */
  connect(): Promise<Store>;
  /** Closes every connection and deletes the database. */
  cleanup(): Promise<void>;
}

export interface StoreFactory {
  name: string;
  create(): Promise<FreshDatabase>;
}

const sqliteFile: StoreFactory = {
  name: 'SQLite file',
  async create() {
    const directory = mkdtempSync(join(tmpdir(), 'store-test-'));
    const url = `sqlite:${join(directory, 'bot.db')}`;
    const opened: Store[] = [];
    const connect = async () => {
      const store = await openStore(url, { now: () => 0 });
      opened.push(store);
      return store;
    };
    return {
      url,
      store: await connect(),
      connect,
      async cleanup() {
        for (const store of opened) await store.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  },
};

export const storeFactories: StoreFactory[] = [sqliteFile];

/** A fresh database for each test of the enclosing describe block. */
export function useFreshStore(factory: StoreFactory): {
  readonly store: Store;
  readonly url: string;
  connect(): Promise<Store>;
} {
  let database: FreshDatabase | undefined;
  beforeEach(async () => {
    database = await factory.create();
  });
  afterEach(async () => {
    await database?.cleanup();
    database = undefined;
  });
  const current = () => {
    if (database === undefined) throw new Error('the store is only available inside a test');
    return database;
  };
  return {
    get store() {
      return current().store;
    },
    get url() {
      return current().url;
    },
    connect: () => current().connect(),
  };
}
