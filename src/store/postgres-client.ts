// SqlClient over node-postgres (pg), for several replicas sharing one database. Single statements
// go to any connection of a pool; a transaction holds one pooled connection from BEGIN to COMMIT.
// The type parsers belong to this pool only (no change to pg's global defaults).
import pg from 'pg';
import { type SqlClient, type SqlRow, type SqlValue, StoreError } from './sql-client.js';

export interface PostgresClientOptions {
  /** How long to wait for a connection; an unreachable server must fail, not hang the bot at start. */
  connectionTimeoutMs?: number;
  /** Most connections the pool keeps open at once. */
  maxConnections?: number;
}

const DEFAULT_CONNECTION_TIMEOUT_MS = 10_000;
/**
 * A replica's polls, completions and requests share these, so a burst of completions' writes queues
 * every poll's work behind them when there are too few. Twenty leaves room for that burst while a few
 * replicas together stay well inside PostgreSQL's default max_connections of 100.
 */
const DEFAULT_MAX_CONNECTIONS = 20;

// pg returns BIGINT as a string because it can exceed 2^53. Ours are epoch-ms times, counts and ids,
// so they come back as numbers; one that is not exact fails loudly instead of being rounded.
function parseBigint(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) {
    throw new StoreError(`The database returned the BIGINT ${text}, beyond what JavaScript holds exactly.`);
  }
  return value;
}

function typeParsers(): pg.CustomTypesConfig {
  const overrides = new pg.TypeOverrides();
  overrides.setTypeParser(pg.types.builtins.INT8, parseBigint);
  return overrides;
}

const isIdentifierChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_$]/u.test(char);

/** Index just past the string literal, quoted identifier, comment or dollar quote starting at `start`. */
function endOfQuoted(sql: string, start: number): number | undefined {
  const char = sql[start];
  const next = sql[start + 1];
  if (char === "'" || char === '"') {
    // E'...' strings take backslash escapes; in every other quote only a doubled quote is literal.
    const backslashEscapes =
      char === "'" && /[eE]/.test(sql[start - 1] ?? '') && !isIdentifierChar(sql[start - 2]);
    let index = start + 1;
    while (index < sql.length) {
      if (backslashEscapes && sql[index] === '\\') index += 2;
      else if (sql[index] === char && sql[index + 1] === char) index += 2;
      else if (sql[index] === char) return index + 1;
      else index += 1;
    }
    return sql.length;
  }
  if (char === '-' && next === '-') {
    const lineEnd = sql.indexOf('\n', start);
    return lineEnd === -1 ? sql.length : lineEnd + 1;
  }
  if (char === '/' && next === '*') {
    // PostgreSQL block comments nest.
    let depth = 0;
    let index = start;
    while (index < sql.length) {
      if (sql.startsWith('/*', index)) {
        depth += 1;
        index += 2;
      } else if (sql.startsWith('*/', index)) {
        depth -= 1;
        index += 2;
        if (depth === 0) return index;
      } else index += 1;
    }
    return sql.length;
  }
  if (char === '$' && !isIdentifierChar(sql[start - 1])) {
    // $$...$$ or $tag$...$tag$; `$1` is a parameter, not a quote (a tag cannot start with a digit).
    const tag = /^\$(?:[\p{L}_][\p{L}\p{N}_]*)?\$/u.exec(sql.slice(start))?.[0];
    if (tag === undefined) return undefined;
    const close = sql.indexOf(tag, start + tag.length);
    return close === -1 ? sql.length : close + tag.length;
  }
  return undefined;
}

/**
 * Rewrites the `?` placeholders repositories write into PostgreSQL's `$1..$n`. A `?` inside a string
 * literal, a quoted identifier, a dollar-quoted string or a comment is text, not a placeholder.
 */
export function toPostgresPlaceholders(sql: string): string {
  let rewritten = '';
  let placeholders = 0;
  let index = 0;
  while (index < sql.length) {
    const quotedEnd = endOfQuoted(sql, index);
    if (quotedEnd !== undefined) {
      rewritten += sql.slice(index, quotedEnd);
      index = quotedEnd;
    } else if (sql[index] === '?') {
      placeholders += 1;
      rewritten += `$${placeholders}`;
      index += 1;
    } else {
      rewritten += sql[index];
      index += 1;
    }
  }
  return rewritten;
}

/** `user@host:port/database` of a connection string: enough to name it in an error, never the password. */
export function describePostgresUrl(connectionString: string): string {
  if (!URL.canParse(connectionString)) return 'with an unreadable URL';
  const url = new URL(connectionString);
  const user = url.username === '' ? '' : `${url.username}@`;
  return `${user}${url.host}${url.pathname}`;
}

type Queryable = pg.Pool | pg.PoolClient;
/** Runs an operation, or refuses it when the client it belongs to has been closed or has ended. */
type Guard = <T>(operation: () => Promise<T>) => Promise<T>;

function statementsOn(target: Queryable, guard: Guard): Omit<SqlClient, 'transaction' | 'close'> {
  function all<Row extends SqlRow>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return guard(async () => (await target.query<Row>(toPostgresPlaceholders(sql), [...params])).rows);
  }
  async function get<Row extends SqlRow>(
    sql: string,
    params?: readonly SqlValue[],
  ): Promise<Row | undefined> {
    return (await all<Row>(sql, params))[0];
  }
  return {
    dialect: 'postgres',
    all,
    get,
    run: (sql, params = []) =>
      guard(async () => ({
        changes: (await target.query(toPostgresPlaceholders(sql), [...params])).rowCount ?? 0,
      })),
    // No parameters: pg then uses the simple query protocol, which runs several statements at once.
    exec: (sql) =>
      guard(async () => {
        await target.query(sql);
      }),
  };
}

export function openPostgresClient(connectionString: string, options: PostgresClientOptions = {}): SqlClient {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? DEFAULT_CONNECTION_TIMEOUT_MS,
    max: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    application_name: 'paperspace-chatops',
    types: typeParsers(),
  });
  // An idle connection that breaks (server restart, network cut) is dropped by the pool, and the next
  // statement opens a fresh one; a statement that fails reports to its caller. Unheard, this event
  // would crash the process.
  pool.on('error', () => undefined);

  // close() waits for these before ending the pool: pg's own end() would leave a statement still
  // waiting for a connection hanging until the connection timeout.
  const running = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;
  const tracked: Guard = (operation) => {
    if (closing !== undefined) return Promise.reject(new StoreError('The database connection is closed.'));
    const result = operation();
    running.add(result);
    const forget = () => running.delete(result);
    result.then(forget, forget);
    return result;
  };

  const transaction = async <T>(work: (tx: SqlClient) => Promise<T>): Promise<T> => {
    const connection = await pool.connect();
    let ended = false;
    const tx: SqlClient = {
      ...statementsOn(connection, (operation) =>
        ended
          ? Promise.reject(new StoreError('This transaction has ended; use the store, not the transaction.'))
          : operation(),
      ),
      // Already inside a transaction: nested work simply joins it.
      transaction: (nested) => nested(tx),
      close: () => Promise.reject(new Error('close the store, not the transaction')),
    };
    try {
      await connection.query('BEGIN');
      const result = await work(tx);
      // PostgreSQL answers COMMIT with a rollback when a statement in the transaction failed, even
      // if `work` caught that failure; the caller must not believe its writes were kept.
      const commit = await connection.query('COMMIT');
      if (commit.command === 'ROLLBACK') {
        throw new StoreError('The transaction was rolled back because one of its statements failed.');
      }
      ended = true;
      connection.release();
      return result;
    } catch (error) {
      ended = true;
      const rollbackFailure = await connection.query('ROLLBACK').then(
        () => undefined,
        (failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))),
      );
      // A connection that cannot roll back is in an unknown state: destroy it, never reuse it.
      connection.release(rollbackFailure);
      throw error;
    }
  };

  return {
    ...statementsOn(pool, tracked),
    transaction: (work) => tracked(() => transaction(work)),
    close: () => {
      closing ??= Promise.allSettled(running).then(() => pool.end());
      return closing;
    },
  };
}
