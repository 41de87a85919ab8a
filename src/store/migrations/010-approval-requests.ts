// Requests a person makes for what Paperspace lets only someone else do (a team administrator
// creates, an owner powers), the standing grants an owner gives ("for the next N hours"), and the
// approvals channel of a Paperspace team. A request moves out of 'open' once, by a conditional
// UPDATE, so two approvers (or two replicas) clicking at once decide it once.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const approvalRequests: Migration = {
  version: 10,
  name: 'approval_requests',
  sql: () => `
      CREATE TABLE approval_requests (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        paperspace_team_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('create', 'start', 'stop', 'restart')),
        machine_id TEXT,
        machine_name TEXT,
        owner_id TEXT,
        details TEXT NOT NULL,
        channel TEXT,
        status TEXT NOT NULL CHECK (status IN ('open', 'approved', 'denied', 'withdrawn', 'expired', 'failed')),
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        decided_by TEXT,
        decided_at BIGINT,
        reason TEXT,
        messages TEXT NOT NULL
      );
      CREATE INDEX approval_requests_open ON approval_requests (status, expires_at);
      CREATE INDEX approval_requests_requester ON approval_requests (slack_team_id, requester_id);
      CREATE TABLE approval_grants (
        slack_team_id TEXT NOT NULL,
        owner_id TEXT NOT NULL,
        requester_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, owner_id, requester_id, machine_id)
      );
      CREATE TABLE approval_settings (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        channel TEXT,
        lifetime_ms BIGINT,
        set_by TEXT NOT NULL,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_team_id)
      );`,
};
