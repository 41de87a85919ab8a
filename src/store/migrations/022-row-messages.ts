// row_messages: the last drawing of a message that lists machines in rows (a reminder, a
// forgotten-machine alert, a team digest), kept once one of its rows was clicked, so that the watch
// a Stop started can bring that row up to date when the machine is off. The bot cannot read a
// message back from Slack (no history scope), and chat.update replaces every block. `version`
// lets a writer whose update reached Slack late send the newer drawing after it. Pruned by
// updated_at (retention).
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const rowMessages: Migration = {
  version: 22,
  name: 'row_messages',
  sql: () => `
      CREATE TABLE row_messages (
        slack_team_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        ts TEXT NOT NULL,
        kind TEXT NOT NULL,
        blocks TEXT NOT NULL,
        text TEXT NOT NULL,
        version BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, channel, ts)
      );
      CREATE INDEX row_messages_updated_at ON row_messages (updated_at);`,
};
