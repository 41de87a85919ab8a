// DATABASE_URL, read apart from the rest of the environment: the store (and the benchmarks and tests
// that open a database of their own) parse a URL the same way config.ts does.

export type DatabaseConfig =
  | { kind: 'sqlite' /** a file path, or `:memory:` */; path: string }
  | {
      kind: 'postgres' /** the full URL; may hold a password, so it is never logged */;
      connectionString: string;
    };

/**
 * Parses `sqlite:PATH` or `postgres://...`/`postgresql://...`. Returns an error sentence rather
 * than throwing so that config and tests can share it; the sentence never repeats the URL, which
 * may hold a database password.
 */
export function parseDatabaseUrl(value: string): DatabaseConfig | { error: string } {
  const expected = 'expected sqlite:PATH (for example sqlite:data/bot.db) or postgres://USER@HOST/DB';
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    return path === '' ? { error: `has no file path; ${expected}` } : { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    return URL.canParse(value) && new URL(value).hostname !== ''
      ? { kind: 'postgres', connectionString: value }
      : { error: `is not a valid PostgreSQL URL; ${expected}` };
  }
  return { error: `has an unknown scheme; ${expected}` };
}
