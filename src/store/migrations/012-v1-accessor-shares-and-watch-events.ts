// Paperspace v1. A share on an API without resource delegations makes chosen teammates accessors
// of the machines; the grants are kept so the scheduler can remove exactly them at expiry,
// retrying a removal Paperspace refused (revoke_retry_at, also a lease between replicas) until
// revoked_at. A watch keeps the event its operation answered with (event_id), to follow it.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const v1AccessorSharesAndWatchEvents: Migration = {
  version: 12,
  name: 'v1_accessor_shares_and_watch_events',
  sql: () => `
      ALTER TABLE watches ADD COLUMN event_id TEXT;
      ALTER TABLE delegations ADD COLUMN accessor_grants TEXT;
      ALTER TABLE delegations ADD COLUMN revoked_at BIGINT;
      ALTER TABLE delegations ADD COLUMN revoke_failure TEXT;
      ALTER TABLE delegations ADD COLUMN revoke_retry_at BIGINT;
      CREATE INDEX delegations_revokes ON delegations (expires_at)
        WHERE accessor_grants IS NOT NULL AND revoked_at IS NULL;`,
};
