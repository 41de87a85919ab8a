// What every `/ps policy <rule>` change does after its reader: the administrator check (a refusal
// names who may), the store, the audit record with the rule and the administrator, and the reply.

import type { PaperspaceClient } from '../../paperspace/client.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import type { CommandContext } from '../../slack/command-context.js';
import type { PolicyTeam } from '../../store/team-policies.js';
import type { PoliciesDeps } from './policies-deps.js';
import { requirePolicyAdministrator } from './policy-administrators.js';

export interface PolicyChange {
  /** The audit action: `policy.max_run`, `policy.off_hours`, … */
  action: string;
  /** What the record keeps: the rule as set, or `off`. */
  note: string;
  resourceId?: string;
  change(team: PolicyTeam, client: PaperspaceClient): Promise<string>;
}

/** Checks the person may, makes the change under the audit trail and tells them what it did. */
export async function changePolicy(
  deps: PoliciesDeps,
  context: CommandContext,
  { action, note, resourceId, change }: PolicyChange,
): Promise<void> {
  const team = await requirePolicyAdministrator(deps, context);
  if (team === undefined) return;
  const told = await deps.audit.run(
    {
      user: context.user,
      action,
      note: `${note} (Paperspace team ${team.paperspaceTeamId})`,
      ...(resourceId ? { resourceId } : {}),
    },
    () => change(team, team.client),
  );
  await context.replyPrivately(plainMessage(told));
}
