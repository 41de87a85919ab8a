// The narrow SQL surface every repository is written against. SQLite (better-sqlite3, sqlite-client.ts)
// and PostgreSQL (pg, postgres-client.ts) implement the same contract, so repositories and
// migrations are written once in SQL both databases accept; the few places that differ ask `dialect`.

export type SqlDialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | Buffer | null;
export type SqlRow = Record<string, unknown>;

/**
 * Contract for adapters:
 * - statements use `?` placeholders (the PostgreSQL adapter rewrites them to `$1..$n`);
 * - BIGINT columns come back as JS numbers (every integer we store is an epoch-ms time, a count
 *   or an id, all far below 2^53), binary columns as Buffer, NULL as null;
 * - each call is atomic on its own; `transaction` groups several.
 */
export interface SqlClient {
  readonly dialect: SqlDialect;
  all<Row extends SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  get<Row extends SqlRow>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** Runs a statement that returns no rows; `changes` is how many rows it inserted, updated or deleted. */
  run(sql: string, params?: readonly SqlValue[]): Promise<{ changes: number }>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `work` in one transaction, committed when it resolves and rolled back when it rejects.
   * `work` must use the client it is handed: on SQLite other callers wait until it is done.
   */
  transaction<T>(work: (tx: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A storage failure the bot can explain to an operator (never to a Slack user). */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/** `column = ?` conditions for the filters that are set, with their parameters in the same order. */
export function equalityFilters(filters: readonly (readonly [column: string, value: string | undefined])[]): {
  conditions: string[];
  params: SqlValue[];
} {
  const set = filters.filter((filter): filter is readonly [string, string] => filter[1] !== undefined);
  return { conditions: set.map(([column]) => `${column} = ?`), params: set.map(([, value]) => value) };
}

/**
 * `count` copies of `tuple` separated by commas: the placeholders of an `IN (…)` list (`?`, the
 * default) or the rows of a `VALUES` list (`(?, ?)`).
 */
export function placeholders(count: number, tuple = '?'): string {
  return Array.from({ length: count }, () => tuple).join(', ');
}
