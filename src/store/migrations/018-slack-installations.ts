// slack_installations: the app installed by OAuth, one row per workspace, or per Enterprise Grid
// organisation for an org-wide install (team_id ''); enterprise_id is '' outside Enterprise Grid.
// The installation (bot token included) is sealed like vault_entries. slack_installation_teams: the
// workspaces an org-wide install has served, so that work done later for a workspace's people (the
// scheduler's posts) finds the organisation's token.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const slackInstallations: Migration = {
  version: 18,
  name: 'slack_installations',
  sql: (t) => `
      CREATE TABLE slack_installations (
        enterprise_id TEXT NOT NULL,
        team_id TEXT NOT NULL,
        is_enterprise_install INTEGER NOT NULL CHECK (is_enterprise_install IN (0, 1)),
        key_id TEXT NOT NULL,
        iv ${t.bytes} NOT NULL,
        auth_tag ${t.bytes} NOT NULL,
        ciphertext ${t.bytes} NOT NULL,
        installed_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (enterprise_id, team_id)
      );
      CREATE INDEX slack_installations_by_team ON slack_installations (team_id);
      CREATE TABLE slack_installation_teams (
        team_id TEXT PRIMARY KEY,
        enterprise_id TEXT NOT NULL,
        first_served_at BIGINT NOT NULL
      );
      CREATE INDEX slack_installation_teams_by_enterprise ON slack_installation_teams (enterprise_id);`,
};
