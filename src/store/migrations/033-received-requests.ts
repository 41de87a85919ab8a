// received_requests: a change a person asked for in Slack, stored before the bot acks it and removed
// once the request reaches its intent (the watch stored before the call to Paperspace, 030) or ends
// with an answer. A replica that dies in between leaves the row; another one tells the person, naming
// the machine, that nothing was done (watches/receipt-recovery.ts). `subject` is the machine as typed;
// `pending_since` moves to the moment a replica takes the row to tell, so a replica lost while telling
// hands it on after the grace; `claimed_at` marks it taken, so the request, should it still be alive,
// sends nothing once the person was told it was not done.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const receivedRequests: Migration = {
  version: 33,
  name: 'received_requests',
  sql: () => `
      CREATE TABLE received_requests (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        channel TEXT,
        operation TEXT NOT NULL,
        subject TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        pending_since BIGINT NOT NULL,
        claimed_at BIGINT
      );
      CREATE INDEX received_requests_pending ON received_requests (pending_since);`,
};
