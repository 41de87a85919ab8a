// The databases the store suites run against. Every suite is a describe.each over these factories;
// each test gets a throwaway database: a SQLite file, or a schema of its own on the PostgreSQL
// server named by TEST_DATABASE_URL (see postgres-test-database.ts for when those tests skip).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { SqlDialect } from '../../src/store/sql-client.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestSchema, postgresSkipReason } from './postgres-test-database.js';

interface FreshDatabase {
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
  dialect: SqlDialect;
  /** Set when this database is unavailable on this run: its tests are skipped with this reason. */
  skipReason?: string;
  create(): Promise<FreshDatabase>;
}

/** Opens stores on `url`, remembering them so cleanup can close every one. */
async function storesOn(url: string, removeDatabase: () => Promise<void>): Promise<FreshDatabase> {
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
      await removeDatabase();
    },
  };
}

export const sqliteFile: StoreFactory = {
  name: 'SQLite file',
  dialect: 'sqlite',
  async create() {
    const directory = mkdtempSync(join(tmpdir(), 'store-test-'));
    return storesOn(`sqlite:${join(directory, 'bot.db')}`, async () =>
      rmSync(directory, { recursive: true, force: true }),
    );
  },
};

export const postgres: StoreFactory = {
  name: 'PostgreSQL',
  dialect: 'postgres',
  skipReason: postgresSkipReason,
  async create() {
    const schema = await createTestSchema();
    return storesOn(schema.url, () => schema.drop());
  },
};

export const storeFactories: StoreFactory[] = [sqliteFile, postgres];

/** A fresh database for each test of the enclosing describe block. */
export function useFreshStore(factory: StoreFactory): {
  readonly store: Store;
  readonly url: string;
  connect(): Promise<Store>;
} {
  let database: FreshDatabase | undefined;
  beforeEach(async (context) => {
    if (factory.skipReason !== undefined) context.skip(factory.skipReason);
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
