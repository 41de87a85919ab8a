// Shutdown reminders, their runs (claimed once across replicas) and the snoozes of their rows.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const reminders: Migration = {
  version: 4,
  name: 'reminders',
  sql: () => `
      CREATE TABLE reminders (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        cron TEXT NOT NULL,
        timezone TEXT NOT NULL,
        label TEXT,
        channel TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX reminders_user ON reminders (slack_team_id, slack_user_id);
      CREATE TABLE reminder_runs (
        reminder_id TEXT NOT NULL REFERENCES reminders (id) ON DELETE CASCADE,
        scheduled_at BIGINT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (reminder_id, scheduled_at)
      );
      CREATE TABLE reminder_snoozes (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        reminder_id TEXT REFERENCES reminders (id) ON DELETE CASCADE,
        channel TEXT NOT NULL,
        fire_at BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id, machine_id)
      );
      CREATE INDEX reminder_snoozes_fire_at ON reminder_snoozes (fire_at);`,
};
