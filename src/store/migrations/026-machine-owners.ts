// machine_owners: whose each machine is, where Paperspace does not say (v1 machines name no owner):
// the person the bot created it for, who created it through the bot, or whom it was assigned to or
// who claimed it (domain/machine-owner.ts). One row per machine of a workspace, replaced by a
// reassignment. Filled here from what the audit trail already knows, before the retention job ages it
// out: approved requests first (the machine was made for the requester), then creates.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const machineOwners: Migration = {
  version: 26,
  name: 'machine_owners',
  sql: () => `
      CREATE TABLE machine_owners (
        slack_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        owner_user_id TEXT NOT NULL,
        owner_paperspace_user_id TEXT,
        basis TEXT NOT NULL CHECK (basis IN ('requested', 'created', 'claimed', 'assigned')),
        set_by TEXT NOT NULL,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id)
      );
      CREATE INDEX machine_owners_owner ON machine_owners (slack_team_id, owner_user_id);
      INSERT INTO machine_owners
        (slack_team_id, machine_id, owner_user_id, owner_paperspace_user_id, basis, set_by, set_at)
        SELECT a.slack_team_id, a.resource_id, r.requester_id, v.paperspace_user_id, 'requested',
               a.slack_user_id, a.occurred_at
          FROM audit_records a
          JOIN approval_requests r
            ON r.slack_team_id = a.slack_team_id
           AND a.message = 'approved request ' || r.id || ' of ' || r.requester_id
          LEFT JOIN vault_entries v
            ON v.slack_team_id = r.slack_team_id AND v.slack_user_id = r.requester_id
         WHERE a.action = 'approval.create' AND a.outcome = 'ok' AND a.resource_id IS NOT NULL
        ON CONFLICT (slack_team_id, machine_id) DO NOTHING;
      INSERT INTO machine_owners
        (slack_team_id, machine_id, owner_user_id, owner_paperspace_user_id, basis, set_by, set_at)
        SELECT a.slack_team_id, a.resource_id, a.slack_user_id, v.paperspace_user_id, 'created',
               a.slack_user_id, a.occurred_at
          FROM audit_records a
          LEFT JOIN vault_entries v
            ON v.slack_team_id = a.slack_team_id AND v.slack_user_id = a.slack_user_id
         WHERE a.action = 'machine.create' AND a.outcome = 'ok' AND a.resource_id IS NOT NULL
        ON CONFLICT (slack_team_id, machine_id) DO NOTHING;`,
};
