// The outcome of a finished watch waits here until it is posted: a replica that dies (or a Slack
// that fails) between recording the outcome and posting it no longer loses the reply, since any
// replica posts what is still due. Watches finished before this migration have nothing due.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const watchOutcomeOutbox: Migration = {
  version: 8,
  name: 'watch_outcome_outbox',
  sql: () => `
      ALTER TABLE watches ADD COLUMN report TEXT;
      ALTER TABLE watches ADD COLUMN report_due_at BIGINT;
      CREATE INDEX watches_report_due ON watches (report_due_at) WHERE report_due_at IS NOT NULL;`,
};
