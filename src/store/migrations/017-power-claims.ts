// power_claims: "this start, stop or restart of this machine is being sent", held for a few seconds
// from before the Paperspace call, so two clicks arriving together send it once (power-claims.ts).
// One row per machine of a workspace, replaced by the next claim.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const powerClaims: Migration = {
  version: 17,
  name: 'power_claims',
  sql: () => `
      CREATE TABLE power_claims (
        slack_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        claim_id TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id)
      );`,
};
