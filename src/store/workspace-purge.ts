// Everything the bot stored for one Slack workspace, deleted when the app is uninstalled from it or its
// bot token is revoked. The vault's entries (people's Paperspace keys) go first, then the work that
// would make the bot act there (watches and their leases, reminders and snoozes, shares, approvals,
// digests, cost alerts, budgets, policies, power claims, the requests received and not yet answered, whose each machine is, who let workflow steps act for them and the step runs taken on, the kept drawings of
// messages with rows), and last the workspace's OAuth installation (its bot token), so that nothing
// is ever sent there again with it.
// One transaction: a failure leaves everything as it was, to be tried again on Slack's retry. Audit
// records stay: they are the record of what was done, and the retention job ages them out.
import type { SqlClient } from './sql-client.js';

/** Tables with a slack_team_id column, in the order they are emptied. */
const WORKSPACE_TABLES = [
  'vault_entries',
  'watch_poll_leases',
  'watches',
  'reminder_snoozes',
  'reminders',
  'delegations',
  'approval_grants',
  'approval_settings',
  'approval_requests',
  'approval_roles',
  'team_digests',
  'cost_alert_settings',
  'cost_alert_runs',
  'cost_alert_exclusions',
  'cost_alerts',
  'cost_alert_messages',
  'power_claims',
  'machine_owners',
  'workflow_step_settings',
  'workflow_step_runs',
  'row_messages',
  'slackbot_proposals',
  'budgets',
  'budget_checks',
  'budget_alerts',
  'policy_rules',
  'policy_exemptions',
  'policy_extensions',
  'policy_claims',
  'received_requests',
] as const;

/** Tables keyed by the workspace as Slack's OAuth names it (team_id): its installation. */
const INSTALLATION_TABLES = ['slack_installations', 'slack_installation_teams'] as const;

type PurgedRows = Record<(typeof WORKSPACE_TABLES)[number] | (typeof INSTALLATION_TABLES)[number], number>;

export interface WorkspacePurge {
  /** Deletes the workspace's rows from every table and says how many went from each. */
  purge(teamId: string): Promise<PurgedRows>;
}

export function createWorkspacePurge(db: SqlClient): WorkspacePurge {
  return {
    purge: (teamId) =>
      db.transaction(async (tx) => {
        const purged = {} as PurgedRows;
        for (const table of WORKSPACE_TABLES) {
          const { changes } = await tx.run(`DELETE FROM ${table} WHERE slack_team_id = ?`, [teamId]);
          purged[table] = changes;
        }
        for (const table of INSTALLATION_TABLES) {
          const { changes } = await tx.run(`DELETE FROM ${table} WHERE team_id = ?`, [teamId]);
          purged[table] = changes;
        }
        return purged;
      }),
  };
}
