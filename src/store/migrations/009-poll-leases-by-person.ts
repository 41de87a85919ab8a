// Replicas lease people, not watches: one getMachines call answers all of a person's watches, so
// two replicas splitting one person's watches would both pay for it. A replica counts the live
// replicas (scheduler_replicas, renewed every tick) to take its fair share of the people.
// delegations_expires_at serves the retention prune of long-expired shares.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const pollLeasesByPerson: Migration = {
  version: 9,
  name: 'poll_leases_by_person',
  sql: () => `
      CREATE TABLE watch_poll_leases (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        claimed_by TEXT,
        lease_until BIGINT,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );
      CREATE INDEX watch_poll_leases_owner ON watch_poll_leases (claimed_by);
      CREATE TABLE scheduler_replicas (
        replica_id TEXT PRIMARY KEY,
        alive_until BIGINT NOT NULL
      );
      CREATE INDEX delegations_expires_at ON delegations (expires_at);`,
};
