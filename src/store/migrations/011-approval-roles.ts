// What Paperspace's answers showed about who administers a team, for the legacy API, whose users
// carry no role: a create it accepted (an administrator) or refused (a member). Create requests go
// to the known administrators, and never to a known member.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const approvalRoles: Migration = {
  version: 11,
  name: 'approval_roles',
  sql: () => `
      CREATE TABLE approval_roles (
        slack_team_id TEXT NOT NULL,
        paperspace_user_id TEXT NOT NULL,
        is_admin INTEGER NOT NULL CHECK (is_admin IN (0, 1)),
        learned_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_user_id)
      );`,
};
