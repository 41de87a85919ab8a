// workflow_step_runs: the function_execution_id of every step run the bot took on. Slack redelivers a
// function_executed event it thinks was not acknowledged (same event, fresh signature), possibly to
// another replica; the first to insert the run's row runs the step, so a redelivered Start completes
// once and a redelivered Request opens one request (store/workflow-step-runs.ts).
// Shipped: never edit it, add a new migration (see ../migrations.ts).
import type { Migration } from './migration.js';

export const workflowStepRuns: Migration = {
  version: 29,
  name: 'workflow_step_runs',
  sql: () => `
      CREATE TABLE workflow_step_runs (
        slack_team_id TEXT NOT NULL,
        function_execution_id TEXT NOT NULL,
        claimed_at BIGINT NOT NULL,
        PRIMARY KEY (slack_team_id, function_execution_id)
      );
      CREATE INDEX workflow_step_runs_by_claim ON workflow_step_runs (claimed_at);`,
};
