// /ps approvals <#channel|off> [--expires 24h]: where the create requests of the person's Paperspace
// team are posted, and how long requests stay open. Audited: it changes who sees requests. Only Slack
// workspace admins and owners may set it (slack/workspace-admin.ts: it posts into the workspace's
// channels), and it is refused to a person Paperspace shows is not an administrator (domain/team-role.ts); when Paperspace does not say,
// the setting is allowed, as Paperspace then judges each approval made under it.

import { teamRoleOf } from '../../../domain/team-role.js';
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { requireWorkspaceAdmin } from '../../../slack/workspace-admin.js';
import { DEFAULT_REQUEST_LIFETIME_MS } from '../request-delivery.js';

const reply = (text: string) => ({ blocks: [{ type: 'section' as const, text: mrkdwn(text) }], text });

export const approvalsCommand: CommandHandler<'approvals'> = async (command, context) => {
  const { deps, user } = context;
  const account = await deps.vault.account(user);
  if (!account) {
    // Shows the login prompt: settings belong to a Paperspace team, known only from a linked key.
    await context.userClient();
    return;
  }
  if (!account.teamId) {
    return context.replyPrivately(
      reply('Your Paperspace account is not a team account: it has no requests to route.'),
    );
  }
  const teamId = account.teamId;
  await requireWorkspaceAdmin(
    { web: context.web, userId: user.userId, logger: deps.logger },
    "choose where your team's requests go",
  );
  const client = await context.userClient();
  if (!client) return;
  // It decides who sees the team's requests: an administrator's setting, as far as Paperspace tells.
  if ((await teamRoleOf(deps, { user, client, paperspaceUserId: account.userId })).role === 'member') {
    return context.replyPrivately(
      reply(
        "Only your team's administrators can choose where requests go, and Paperspace says you are a member. Ask an administrator to run this.",
      ),
    );
  }
  await deps.audit.run(
    {
      user,
      action: 'approval.settings',
      note: `channel ${command.channel ?? 'off'}, lifetime ${command.lifetimeMs ?? 'default'}`,
    },
    () =>
      deps.store.approvals.setSettings({
        teamId: user.teamId,
        paperspaceTeamId: teamId,
        settings: { channel: command.channel, lifetimeMs: command.lifetimeMs },
        setBy: user.userId,
        at: deps.now(),
      }),
  );
  const hours = (command.lifetimeMs ?? DEFAULT_REQUEST_LIFETIME_MS) / 3_600_000;
  const where = command.channel
    ? `posted in <#${command.channel}>, as are requests waiting for an owner who has not linked a key (invite me there with \`/invite\` if I am not a member)`
    : "sent to each administrator's direct messages";
  await context.replyPrivately(
    reply(`✅ Create requests of your team are now ${where}. Requests stay open for ${hours} hours.`),
  );
};
