// /ps digest off: an administrator (of the Slack workspace, and of the team for Paperspace) ends
// their team's digest.

import { z } from 'zod';
import { requireAdministrator } from '../../../domain/team-role.js';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { requireWorkspaceAdmin, WORKSPACE_ADMINS_ONLY } from '../../../slack/workspace-admin.js';
import type { SpendDeps } from '../spend-deps.js';

export const digestOffOperation = defineOperation({
  name: 'digest off',
  usage: `${ps} digest off`,
  summary: "Stop your team's digest (team administrators).",
  help: {
    parameters: [],
    examples: [`${ps} digest off`],
    effect: `Ends the team's digest. ${WORKSPACE_ADMINS_ONLY}`,
  },
  kind: 'change',
  params: z.object({}),
  read: (args) => withoutArguments('digest off', args),
  run: endDigest,
});

async function endDigest(_command: unknown, context: CommandContext, deps: SpendDeps): Promise<void> {
  const client = await context.userClient();
  if (!client) return;
  const { user } = context;
  await requireWorkspaceAdmin(
    { web: context.web, userId: user.userId, logger: deps.logger },
    'end the team digest',
  );
  const account = await requireAdministrator(deps, user, client, 'end the team digest');
  const digest = await deps.store.teamDigests.forTeam(user.teamId, account.teamId);
  if (digest === undefined) throw new UserFacingError('Your team has no digest: there is nothing to end.');
  await deps.audit.run(
    { user, action: 'digest.off', resourceId: digest.id, note: `in ${digest.channel}` },
    () => deps.store.teamDigests.delete(digest.id),
  );
  const text = `📋 The team digest in <#${escapeMrkdwn(digest.channel)}> (${escapeMrkdwn(digest.label)}) has ended.`;
  await context.replyPrivately(plainMessage(text));
}
