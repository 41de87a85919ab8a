// The PostgreSQL server the store tests run against, named by TEST_DATABASE_URL, for example
// postgres://postgres:postgres@127.0.0.1:5432/bot_test. Each test gets a schema of its own, created
// empty and dropped afterwards, so test files running side by side never see each other's rows.
// Without TEST_DATABASE_URL the PostgreSQL tests are skipped and say why; when CI is set they fail
// instead, so a CI run cannot pass having quietly tested SQLite only.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach } from 'vitest';
import { describePostgresUrl } from '../../src/store/postgres-client.js';

const serverUrl = process.env.TEST_DATABASE_URL || undefined;
const inCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

/** Why the PostgreSQL tests do not run, or undefined when they run (or, under CI, must fail). */
export const postgresSkipReason =
  serverUrl === undefined && !inCi
    ? 'TEST_DATABASE_URL is not set; set it to postgres://USER:PASSWORD@HOST:PORT/DB to run the PostgreSQL tests'
    : undefined;

export interface TestSchema {
  /** Connects to the test database with the schema first on the search_path. */
  url: string;
  drop(): Promise<void>;
}

/** The URL with `-c search_path=SCHEMA` added to the connection options, which pg passes to the server. */
function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  const options = [parsed.searchParams.get('options'), `-c search_path=${schema}`].filter(Boolean);
  parsed.searchParams.set('options', options.join(' '));
  return parsed.toString();
}

async function onServer<T>(work: (client: pg.Client, url: string) => Promise<T>): Promise<T> {
  if (serverUrl === undefined) {
    throw new Error(
      'CI is set but TEST_DATABASE_URL is not: the PostgreSQL tests must run in CI. ' +
        'Start PostgreSQL and set TEST_DATABASE_URL=postgres://USER:PASSWORD@HOST:PORT/DB (.ci/run does).',
    );
  }
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Cannot reach the PostgreSQL server of TEST_DATABASE_URL (${describePostgresUrl(serverUrl)}): ${reason}`,
      { cause: error },
    );
  }
  try {
    return await work(client, serverUrl);
  } finally {
    await client.end();
  }
}

/** The server's version string; fails when TEST_DATABASE_URL is missing under CI or the server is down. */
export const postgresServerVersion = () =>
  onServer(async (client) => (await client.query<{ version: string }>('SELECT version()')).rows[0]?.version);

/** Creates an empty schema on the test server. */
export async function createTestSchema(): Promise<TestSchema> {
  const schema = `test_${randomBytes(8).toString('hex')}`;
  const url = await onServer(async (client, serverUrl) => {
    await client.query(`CREATE SCHEMA ${schema}`);
    return withSearchPath(serverUrl, schema);
  });
  return {
    url,
    drop: () => onServer(async (client) => void (await client.query(`DROP SCHEMA ${schema} CASCADE`))),
  };
}

/** A fresh, empty schema for each test of the enclosing describe block (skipped without a server). */
export function useTestSchema(): { readonly url: string } {
  let schema: TestSchema | undefined;
  beforeEach(async (context) => {
    if (postgresSkipReason !== undefined) context.skip(postgresSkipReason);
    schema = await createTestSchema();
  });
  afterEach(async () => {
    await schema?.drop();
    schema = undefined;
  });
  return {
    get url() {
      if (schema === undefined) throw new Error('the schema is only available inside a test');
      return schema.url;
    },
  };
}
