// channel_post_slots: when the next chat.postMessage in a channel may go, for the whole deployment.
// Slack allows about one message a second per channel for the app, not per replica: each replica
// claims its post's moment here (one upsert per post), so two replicas together keep the pace one
// keeps alone. A slot in the past means "now"; pruned once it is (retention).
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const channelPostSlots: Migration = {
  version: 23,
  name: 'channel_post_slots',
  sql: () => `
      CREATE TABLE channel_post_slots (
        channel TEXT PRIMARY KEY,
        next_at BIGINT NOT NULL
      );`,
};
