// Machines shared in a channel (resource delegations), marked expired in their post later.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const delegations: Migration = {
  version: 5,
  name: 'delegations',
  sql: () => `
      CREATE TABLE delegations (
        id TEXT PRIMARY KEY,
        delegation_id TEXT NOT NULL,
        access_token_id TEXT NOT NULL,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        message_ts TEXT,
        machine_ids TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        expired_notified_at BIGINT
      );
      CREATE INDEX delegations_expiry ON delegations (expires_at) WHERE expired_notified_at IS NULL;
      CREATE INDEX delegations_user ON delegations (slack_team_id, slack_user_id, expires_at);`,
};
