// Who let Workflow Builder steps act with their Paperspace key (`/ps steps on`). Nobody is asked by
// default: a person without a row has steps off.
import type { SlackUser } from './slack-user.js';
import type { SqlClient } from './sql-client.js';

export interface WorkflowStepSettingRepository {
  /** True only for someone who turned steps on and has not turned them off since. */
  enabled(user: SlackUser): Promise<boolean>;
  setEnabled(user: SlackUser, enabled: boolean, at: number): Promise<void>;
}

export function createWorkflowStepSettingRepository(db: SqlClient): WorkflowStepSettingRepository {
  return {
    async enabled(user) {
      const row = await db.get<{ enabled: number }>(
        'SELECT enabled FROM workflow_step_settings WHERE slack_team_id = ? AND slack_user_id = ?',
        [user.teamId, user.userId],
      );
      return Number(row?.enabled ?? 0) === 1;
    },
    async setEnabled(user, enabled, at) {
      await db.run(
        `INSERT INTO workflow_step_settings (slack_team_id, slack_user_id, enabled, updated_at)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (slack_team_id, slack_user_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
        [user.teamId, user.userId, enabled ? 1 : 0, at],
      );
    },
  };
}
