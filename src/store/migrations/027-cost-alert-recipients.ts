// Forgotten-machine alerts go to a machine's owner now, not to whoever's key listed it, and several due
// together come as one message. cost_alert_messages: where each alert about a machine was posted, so a
// stop made anywhere else (a reminder's Stop all, a card) can end the alert's row instead of leaving
// its buttons live; the rows go once the run they were about has ended. cost_alert_exclusions keeps
// the machine's name as it was muted, so `/ps alerts` can list and unmute it without asking Paperspace.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const costAlertRecipients: Migration = {
  version: 27,
  name: 'cost_alert_recipients',
  sql: () => `
      CREATE TABLE cost_alert_messages (
        slack_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        ts TEXT NOT NULL,
        posted_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id, channel, ts)
      );
      ALTER TABLE cost_alert_exclusions ADD COLUMN machine_name TEXT;`,
};
