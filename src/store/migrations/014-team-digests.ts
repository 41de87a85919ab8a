// The team digest: one per Paperspace team in a Slack workspace, set by an administrator whose key
// lists the team's machines, posted on a cron in their time zone. Runs are claimed like reminder
// runs, so with several replicas each digest is posted once.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const teamDigests: Migration = {
  version: 14,
  name: 'team_digests',
  sql: () => `
      CREATE TABLE team_digests (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        label TEXT NOT NULL,
        set_by TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        UNIQUE (slack_team_id, paperspace_team_id)
      );
      CREATE TABLE team_digest_runs (
        digest_id TEXT NOT NULL REFERENCES team_digests (id) ON DELETE CASCADE,
        scheduled_at BIGINT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (digest_id, scheduled_at)
      );`,
};
