// One card tells one story: two active watches of it would post two completions in its thread.
// Before the index existed, two requests about one card at once could both be stored; the newest
// of them stays active and the older ones end as replaced, at the time the newest began.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const oneActiveWatchPerCard: Migration = {
  version: 6,
  name: 'one_active_watch_per_card',
  sql: () => `
      UPDATE watches SET status = 'failed', detail = 'replaced by a newer request on the same card',
        completed_at = (
          SELECT MAX(newest.created_at) FROM watches AS newest
          WHERE newest.status = 'active' AND newest.slack_team_id = watches.slack_team_id
            AND newest.channel = watches.channel AND newest.message_ts = watches.message_ts)
      WHERE status = 'active' AND message_ts IS NOT NULL AND EXISTS (
        SELECT 1 FROM watches AS newer
        WHERE newer.status = 'active' AND newer.slack_team_id = watches.slack_team_id
          AND newer.channel = watches.channel AND newer.message_ts = watches.message_ts
          AND (newer.created_at > watches.created_at
            OR (newer.created_at = watches.created_at AND newer.id > watches.id)));
      CREATE UNIQUE INDEX watches_active_card ON watches (slack_team_id, channel, message_ts)
        WHERE status = 'active' AND message_ts IS NOT NULL;`,
};
