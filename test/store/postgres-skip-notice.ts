// Vitest global setup: says once, at the top of a run, why the PostgreSQL store tests are skipped,
// rather than leaving only a count of skipped tests to wonder about.
import { postgresSkipReason } from './postgres-test-database.js';

export function setup(): void {
  if (postgresSkipReason !== undefined)
    process.stdout.write(`\nPostgreSQL store tests skipped: ${postgresSkipReason}\n`);
}
