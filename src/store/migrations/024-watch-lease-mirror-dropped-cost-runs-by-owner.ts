// watches.claimed_by and lease_until mirrored each person's lease (watch_poll_leases) onto their
// watches, for a reader to see which replica polls a watch; nothing in the bot read them, and
// keeping them true cost every tick two updates over the watches table that, at 10,000 people,
// took seconds under the completions' own writes. watchLeases.holderOf answers the question now.
// cost_alert_runs_owner: each person's cost check ends the runs of machines their list no longer
// shows, by owner; without it each check scanned every followed run (3 ms each at 10,000 people).
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const watchLeaseMirrorDroppedCostRunsByOwner: Migration = {
  version: 24,
  name: 'watch_lease_mirror_dropped_cost_runs_by_owner',
  sql: () => `
      ALTER TABLE watches DROP COLUMN claimed_by;
      ALTER TABLE watches DROP COLUMN lease_until;
      CREATE INDEX cost_alert_runs_owner ON cost_alert_runs (slack_team_id, slack_user_id);`,
};
