// audit_records_resource: the spend report reads each machine's history (its create, an approval
// that led to it) by resource id, newest first; without it every read scanned the whole audit
// table, about 200 ms at a year's volume. approval_grants_expires_at: the daily prune finds the
// standing grants that ran out without reading every grant.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const auditByResourceAndGrantExpiry: Migration = {
  version: 21,
  name: 'audit_by_resource_and_grant_expiry',
  sql: () => `
      CREATE INDEX audit_records_resource ON audit_records (resource_id, occurred_at, id);
      CREATE INDEX approval_grants_expires_at ON approval_grants (expires_at);`,
};
