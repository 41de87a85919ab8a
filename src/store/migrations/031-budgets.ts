// Budgets per Paperspace team: the team's, and each person's (subject 'team' or a Slack user id), in
// whole cents a calendar month, with the month's spend as last counted (the gate reads it without a
// Paperspace call). budget_checks holds when a team's spend was last counted, so one replica counts
// it per interval; budget_alerts holds each 50/80/100% alert claimed, so it is sent once a month per
// budget across restarts and replicas.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const budgets: Migration = {
  version: 31,
  name: 'budgets',
  sql: () => `
      CREATE TABLE budgets (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        set_by TEXT NOT NULL,
        set_at BIGINT NOT NULL,
        spent_cents BIGINT,
        spent_month TEXT,
        spent_at BIGINT,
        PRIMARY KEY (slack_team_id, paperspace_team_id, subject)
      );
      CREATE TABLE budget_checks (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        checked_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_team_id)
      );
      CREATE TABLE budget_alerts (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        month TEXT NOT NULL,
        threshold INTEGER NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_team_id, subject, month, threshold)
      );`,
};
