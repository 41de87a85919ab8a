// Who did what, to which machine, with what outcome: every mutating action writes one record.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const auditRecords: Migration = {
  version: 2,
  name: 'audit_records',
  sql: (t) => `
      CREATE TABLE audit_records (
        id ${t.autoIncrementPrimaryKey},
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        action TEXT NOT NULL,
        resource_id TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error')),
        message TEXT,
        occurred_at BIGINT NOT NULL
      );
      CREATE INDEX audit_records_user ON audit_records (slack_team_id, slack_user_id, occurred_at);
      CREATE INDEX audit_records_occurred_at ON audit_records (occurred_at);`,
};
