// Two guarantees a check in the application could not give once several requests (or replicas)
// ran at once:
// - slack_request_replays: the signatures (SHA-256 of) of the Slack requests already served, so a
//   replay is refused whichever replica it reaches; the primary key makes the claim atomic.
// - a person's reminders: one per schedule (a unique index; the duplicates a race stored before it
//   are removed, keeping the oldest), and at most the limit, each holding a numbered slot below it
//   that no two of the person's reminders can share. Reminders stored past the limit before keep
//   slots above it, so no new one fits until enough are turned off.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const requestReplaysAndReminderSlots: Migration = {
  version: 13,
  name: 'request_replays_and_reminder_slots',
  sql: () => `
      CREATE TABLE slack_request_replays (
        signature_hash TEXT PRIMARY KEY,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX slack_request_replays_expires_at ON slack_request_replays (expires_at);
      DELETE FROM reminders WHERE EXISTS (
        SELECT 1 FROM reminders older
        WHERE older.slack_team_id = reminders.slack_team_id
          AND older.slack_user_id = reminders.slack_user_id
          AND older.cron = reminders.cron
          AND older.timezone = reminders.timezone
          AND (older.created_at < reminders.created_at
            OR (older.created_at = reminders.created_at AND older.id < reminders.id))
      );
      CREATE UNIQUE INDEX reminders_schedule ON reminders (slack_team_id, slack_user_id, cron, timezone);
      ALTER TABLE reminders ADD COLUMN slot INTEGER;
      UPDATE reminders SET slot = (
        SELECT COUNT(*) FROM reminders older
        WHERE older.slack_team_id = reminders.slack_team_id
          AND older.slack_user_id = reminders.slack_user_id
          AND (older.created_at < reminders.created_at
            OR (older.created_at = reminders.created_at AND older.id < reminders.id))
      );
      CREATE UNIQUE INDEX reminders_slot ON reminders (slack_team_id, slack_user_id, slot);`,
};
