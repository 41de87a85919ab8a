// Slackbot's MCP client may only propose a change: the bot keeps each proposal until the person it is
// for clicks Confirm or Cancel in their DM, or it expires. The row is the proof that a click is theirs
// and the first one (decided_at is set once, by one UPDATE, whichever replica serves the click).
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const slackbotProposals: Migration = {
  version: 28,
  name: 'slackbot_proposals',
  sql: () => `
      CREATE TABLE slackbot_proposals (
        id TEXT PRIMARY KEY,
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        params TEXT NOT NULL,
        summary TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        decided_at BIGINT,
        decision TEXT
      );
      CREATE INDEX slackbot_proposals_by_expiry ON slackbot_proposals (expires_at);`,
};
