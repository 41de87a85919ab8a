// The cost guard: each person's threshold (slack_user_id '' holds the workspace default an
// administrator set; a NULL threshold is "off"), the run of each machine it follows (when it began
// running, and until when its owner chose to keep it running), the machines a person never wants to
// hear about, and one row per alert. An alert's key is (machine, arming): the replica whose INSERT
// lands posts it, so two replicas never post the same alert.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const costAlerts: Migration = {
  version: 15,
  name: 'cost_alerts',
  sql: () => `
      CREATE TABLE cost_alert_settings (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        threshold_ms BIGINT,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );
      CREATE TABLE cost_alert_runs (
        machine_id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        running_since BIGINT NOT NULL,
        since_estimated INTEGER NOT NULL,
        kept_until BIGINT
      );
      CREATE TABLE cost_alert_exclusions (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id, machine_id)
      );
      CREATE TABLE cost_alerts (
        machine_id TEXT NOT NULL,
        arming BIGINT NOT NULL,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        posted_at BIGINT NOT NULL,
        PRIMARY KEY (machine_id, arming)
      );`,
};
