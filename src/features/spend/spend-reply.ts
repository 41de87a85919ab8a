// /ps spend's reply, for the command and for its Previous / Next alike: the month's report read with
// the asker's own key (a team administrator's covers the team, anyone else's their own machines), on
// the page of people asked for. Utilization is cached for a few minutes, so paging re-reads little.
import { teamRoleOf } from '../../domain/team-role.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { Interaction } from '../../slack/interaction.js';
import { spendMessage } from './blocks/spend.js';
import type { SpendDeps } from './spend-deps.js';
import { readSpend } from './spend-report.js';

/** The reply, or undefined when the person has no linked key (they were told how to link one). */
export async function spendReply(
  interaction: Interaction,
  deps: SpendDeps,
  month: string | null,
  page: number,
): Promise<SlackMessage | undefined> {
  const client = await interaction.userClient();
  if (!client) return undefined;
  const { user } = interaction;
  const account = await deps.vault.account(user);
  if (!account)
    throw new UserFacingError('Your Paperspace key is no longer linked: link it again with /ps login.');
  const users = await client.users.list({});
  const role = await teamRoleOf(deps, { user, client, paperspaceUserId: account.userId }, users);
  const admin = role.role === 'admin';
  const report = await readSpend(deps, {
    user,
    client,
    paperspaceUserId: account.userId,
    month,
    // An individual account's own administrator has only their own machines to see.
    teamWide: admin && users.length > 1,
    users,
  });
  return spendMessage(report, admin ? undefined : role.why, page);
}
