// /ps spend [YYYY-MM]: what the month has cost so far (or a past month), for an administrator the whole
// team's by person, for anyone else their own machines. Read with the asker's own key.
import { teamRoleOf } from '../../../domain/team-role.js';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { spendMessage } from '../blocks/spend.js';
import { readSpend } from '../spend-report.js';

export const spend: CommandHandler<'spend'> = async (command, context) => {
  const client = await context.userClient();
  if (!client) return;
  const { deps } = context;
  const account = await deps.vault.account(context.user);
  if (!account)
    throw new UserFacingError('Your Paperspace key is no longer linked: link it again with /ps login.');
  const users = await client.users.list({});
  const role = await teamRoleOf(
    deps,
    { user: context.user, client, paperspaceUserId: account.userId },
    users,
  );
  const admin = role.role === 'admin';
  const report = await readSpend(deps, {
    user: context.user,
    client,
    paperspaceUserId: account.userId,
    month: command.month,
    // An individual account's own administrator has only their own machines to see.
    teamWide: admin && users.length > 1,
    users,
  });
  await context.replyPrivately(spendMessage(report, role.role === 'admin' ? undefined : role.why));
};
