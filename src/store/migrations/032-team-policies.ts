// A Paperspace team's guardrails, set by its administrators: run limits and off-hours, one row a
// rule kind (policy_rules), each with who set it and when (a run limit counts from
// then for machines already running, and a stop the owner's key cannot make is asked of its setter);
// machines exempted until a day (policy_exemptions); each machine's extension, which outlives its
// restarts (policy_extensions); and the warnings and stops claimed, so each is made once across
// replicas (policy_claims, pruned once the stop is long past).
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const teamPolicies: Migration = {
  version: 32,
  name: 'team_policies',
  sql: () => `
      CREATE TABLE policy_rules (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        rule TEXT NOT NULL,
        set_by TEXT NOT NULL,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, paperspace_team_id, kind)
      );
      CREATE TABLE policy_exemptions (
        slack_team_id TEXT NOT NULL,
        paperspace_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        machine_name TEXT NOT NULL,
        until_at BIGINT NOT NULL,
        set_by TEXT NOT NULL,
        set_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id)
      );
      CREATE TABLE policy_extensions (
        slack_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        until_at BIGINT NOT NULL,
        granted_by TEXT NOT NULL,
        granted_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id, kind)
      );
      CREATE TABLE policy_claims (
        slack_team_id TEXT NOT NULL,
        machine_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        due_at BIGINT NOT NULL,
        step TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, machine_id, kind, due_at, step)
      );
      CREATE INDEX policy_claims_by_age ON policy_claims (claimed_at);`,
};
