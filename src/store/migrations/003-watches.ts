// The watches of long operations, polled until the machine reaches the state asked for; they survive
// a restart.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const watches: Migration = {
  version: 3,
  name: 'watches',
  sql: () => `
      CREATE TABLE watches (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        machine_name TEXT NOT NULL,
        target_state TEXT NOT NULL,
        channel TEXT NOT NULL,
        message_ts TEXT,
        thread_ts TEXT,
        created_at BIGINT NOT NULL,
        deadline_at BIGINT NOT NULL,
        last_state TEXT,
        timeline TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'done', 'failed', 'timed_out', 'gone')),
        detail TEXT,
        completed_at BIGINT,
        claimed_by TEXT,
        lease_until BIGINT
      );
      CREATE INDEX watches_status ON watches (status, deadline_at);
      CREATE INDEX watches_user ON watches (slack_team_id, slack_user_id, status);`,
};
