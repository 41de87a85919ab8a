// workflow_step_settings: whether a person let Workflow Builder steps that name them act with their
// key (/ps steps on). A step finds no row for someone who never chose: off, so a workflow someone
// else built never acts for a person who did not agree to it. watches.function_execution_id: a
// watch a Wait step started ends its step (functions.completeSuccess or completeError) instead of
// posting, and like any watch survives restarts and is finished by one replica.
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const workflowSteps: Migration = {
  version: 19,
  name: 'workflow_steps',
  sql: () => `
      ALTER TABLE watches ADD COLUMN function_execution_id TEXT;
      CREATE TABLE workflow_step_settings (
        slack_team_id TEXT NOT NULL,
        slack_user_id TEXT NOT NULL,
        enabled INTEGER NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, slack_user_id)
      );`,
};
