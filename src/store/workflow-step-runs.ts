// The Workflow Builder step runs the bot took on, one row per function_execution_id. Slack redelivers
// a function_executed event when it thinks the first delivery went unanswered: the same event under a
// fresh signature, so the request guard's replay check lets it in, and it may reach another replica.
// Whoever inserts the row runs the step; every other delivery of that run does nothing. The INSERT ...
// ON CONFLICT DO NOTHING is the claim, atomic on SQLite and PostgreSQL alike.
import type { SqlClient } from './sql-client.js';

export interface WorkflowStepRunRepository {
  /** True for exactly one caller per run across every replica; false for a redelivery of it. */
  claim(run: { teamId: string; executionId: string; at: number }): Promise<boolean>;
  /** Forgets up to `limit` runs claimed before `before` (past Slack's last redelivery); returns how many. */
  pruneBefore(before: number, limit: number): Promise<number>;
}

export function createWorkflowStepRunRepository(db: SqlClient): WorkflowStepRunRepository {
  return {
    async claim({ teamId, executionId, at }) {
      const { changes } = await db.run(
        `INSERT INTO workflow_step_runs (slack_team_id, function_execution_id, claimed_at) VALUES (?, ?, ?)
         ON CONFLICT (slack_team_id, function_execution_id) DO NOTHING`,
        [teamId, executionId, at],
      );
      return changes === 1;
    },
    async pruneBefore(before, limit) {
      const { changes } = await db.run(
        `DELETE FROM workflow_step_runs WHERE (slack_team_id, function_execution_id) IN
           (SELECT slack_team_id, function_execution_id FROM workflow_step_runs WHERE claimed_at < ? LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },
  };
}
