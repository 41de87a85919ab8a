// A throwaway PostgreSQL schema for the benchmarks that run two replicas on one database. The server is
// BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local one .ci/run starts.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const serverUrl =
  process.env.BENCH_DATABASE_URL ||
  process.env.TEST_DATABASE_URL ||
  'postgres://postgres:postgres@127.0.0.1:5432/bot_test';

export interface BenchSchema {
  /** Connects with the schema first on the search_path. */
  url: string;
  drop(): Promise<void>;
}

export async function createBenchSchema(): Promise<BenchSchema> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => run(`DROP SCHEMA ${schema} CASCADE`) };
}
