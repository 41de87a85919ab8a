// Who may set a Paperspace team's policies: a Slack workspace admin or owner (the policies stop
// machines of people across the workspace) whom Paperspace shows administers the team (the rule
// /ps approvals and /ps digest follow). A refusal names who can: the team's administrators who
// linked a key here, as far as Paperspace (v1) or their creates (legacy) tell.
import { listedAdministrators, teamRoleOf } from '../../domain/team-role.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, mention } from '../../slack/block-kit/text.js';
import type { CommandContext } from '../../slack/command-context.js';
import { requireWorkspaceAdmin } from '../../slack/workspace-admin.js';
import type { PolicyTeam } from '../../store/team-policies.js';
import type { LinkedAccount } from '../../vault/key-vault.js';
import type { PoliciesDeps } from './policies-deps.js';

/** The person's Paperspace team, as policies are kept: one Slack workspace and one Paperspace team. */
export async function policyTeamOf(
  deps: Pick<PoliciesDeps, 'vault'>,
  context: Pick<CommandContext, 'user'>,
): Promise<(PolicyTeam & { account: LinkedAccount }) | undefined> {
  const account = await deps.vault.account(context.user);
  if (!account?.teamId) return undefined;
  return { teamId: context.user.teamId, paperspaceTeamId: account.teamId, account };
}

export const NOT_A_TEAM =
  'Your Paperspace account is not a team account: policies are set for a Paperspace team.';

/** Who can set the policies, in words: mentions of linked administrators, or who they would be. */
async function whoCanSet(deps: PoliciesDeps, team: PolicyTeam, client: PaperspaceClient): Promise<string> {
  const listed = await listedAdministrators(client, deps.logger);
  const ids =
    listed ??
    new Set(
      [...(await deps.store.approvals.knownRoles(team.teamId))]
        .filter(([, admin]) => admin)
        .map(([id]) => id),
    );
  const linked = await deps.store.vaultEntries.linkedIn(team.teamId, [...ids]);
  const people = [...new Set(linked.map((link) => link.slackUserId))].map(mention);
  const them = 'Slack workspace admins and owners who administer your Paperspace team';
  return people.length === 0 ? `${them} can set them.` : `${them} can set them: ask ${people.join(', ')}.`;
}

/**
 * The team whose policies the person may change. Otherwise the person is told why not and who may (by
 * mention, so not as an error, whose words are escaped), and it answers undefined, as it does when the
 * person has no key (the login prompt was shown).
 */
export async function requirePolicyAdministrator(
  deps: PoliciesDeps,
  context: CommandContext,
): Promise<(PolicyTeam & { client: PaperspaceClient }) | undefined> {
  const client = await context.userClient();
  if (!client) return undefined;
  const team = await policyTeamOf(deps, context);
  if (team === undefined) throw new UserFacingError(NOT_A_TEAM);
  const { user } = context;
  const role = await teamRoleOf(deps, { user, client, paperspaceUserId: team.account.userId });
  let refusal: string | undefined;
  if (role.role !== 'admin') refusal = `Only team administrators can set policies, and ${role.why}.`;
  else {
    try {
      await requireWorkspaceAdmin(
        { web: context.web, userId: user.userId, logger: deps.logger },
        'set policies',
      );
    } catch (error) {
      if (!(error instanceof UserFacingError)) throw error;
      refusal = error.message;
    }
  }
  if (refusal !== undefined) {
    await context.replyPrivately(
      plainMessage(`❌ ${escapeMrkdwn(refusal)} ${await whoCanSet(deps, team, client)}`),
    );
    return undefined;
  }
  return { teamId: team.teamId, paperspaceTeamId: team.paperspaceTeamId, client };
}
