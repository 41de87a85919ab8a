// The per-person limit on active watches, enforced by the database: each active watch holds a
// numbered slot no other active watch of the person shares (counting first and inserting second let
// concurrent requests past the limit). Watches already active take slots in the order they began.
// And when a completion was last handed to Slack without an answer recorded, so that posting it
// again (after a crash, or an answer that never came) says it may be a repeat.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const watchSlotsAndReportSending: Migration = {
  version: 16,
  name: 'watch_slots_and_report_sending',
  sql: () => `
      ALTER TABLE watches ADD COLUMN report_sent_at BIGINT;
      ALTER TABLE watches ADD COLUMN slot INTEGER;
      UPDATE watches SET slot = (
        SELECT COUNT(*) FROM watches older
        WHERE older.status = 'active'
          AND older.slack_team_id = watches.slack_team_id
          AND older.slack_user_id = watches.slack_user_id
          AND (older.created_at < watches.created_at
            OR (older.created_at = watches.created_at AND older.id < watches.id))
      ) WHERE status = 'active';
      CREATE UNIQUE INDEX watches_active_slot ON watches (slack_team_id, slack_user_id, slot)
        WHERE status = 'active';`,
};
