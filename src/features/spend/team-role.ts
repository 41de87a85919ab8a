// Whether a person administers their Paperspace team, as Paperspace itself says: team-wide spend and
// the team digest are for administrators. v1 answers it directly (`GET /auth/session`, isAdmin or
// isOwner). The legacy API has no role anywhere (its users carry none): there what a create showed
// (approvers.ts learns it: accepted, an administrator; refused, a member) decides, and failing that
// the one read only an administrator may make: listing the team's shared drives with the person's
// GraphQL access token. An individual account's only user is its own administrator.

import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { MissingAccessTokenError, PaperspacePermissionError } from '../../paperspace/errors.js';
import type { User } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault, LinkedAccount } from '../../vault/key-vault.js';

export type TeamRole =
  | { admin: true }
  /** `why` finishes "Only team administrators can …, and …". */
  | { admin: false; why: string };

export async function teamRoleOf(
  client: PaperspaceClient,
  users: readonly User[],
  /** What a create of theirs showed Paperspace thinks (legacy API), when one did. */
  learned: boolean | undefined,
): Promise<TeamRole> {
  if (client.capabilities.whoAmI) {
    const identity = await client.account.whoAmI();
    if (identity?.isAdmin) return { admin: true };
    return {
      admin: false,
      why: 'Paperspace says your key belongs to a member of the team, not an administrator',
    };
  }
  if (users.length <= 1) return { admin: true };
  if (learned === true) return { admin: true };
  if (learned === false) {
    return {
      admin: false,
      why: 'Paperspace refused a machine you created, which only administrators may do',
    };
  }
  try {
    await client.sharedDrives.list({ first: 1 });
    return { admin: true };
  } catch (error) {
    if (error instanceof PaperspacePermissionError) {
      return { admin: false, why: 'Paperspace refused your access token what only administrators may read' };
    }
    if (error instanceof MissingAccessTokenError) {
      return {
        admin: false,
        why:
          'this Paperspace API tells an administrator only by their GraphQL access token, and you have not ' +
          'linked one: add it in /ps login',
      };
    }
    throw error;
  }
}

/**
 * The person's linked account, when Paperspace says they administer their team; otherwise a refusal
 * naming why. `what` finishes "Only team administrators can …".
 */
export async function requireAdministrator(
  deps: { vault: Pick<KeyVault, 'account'>; store: Pick<Store, 'approvals'> },
  user: SlackUser,
  client: PaperspaceClient,
  what: string,
): Promise<LinkedAccount & { teamId: string }> {
  const account = await deps.vault.account(user);
  if (account === undefined) {
    throw new UserFacingError('Your Paperspace key is no longer linked: link it again with /ps login.');
  }
  const role = await teamRoleOf(client, await client.users.list({}), await learnedRole(deps, user, account));
  if (!role.admin) throw new UserFacingError(`Only team administrators can ${what}, and ${role.why}.`);
  const { teamId } = account;
  if (!teamId) {
    throw new UserFacingError(
      'Your linked key does not say which Paperspace team it belongs to: link it again with /ps login.',
    );
  }
  return { ...account, teamId };
}

/** What the person's creates showed of their role (approvers.ts notes it), if any did. */
export async function learnedRole(
  deps: { store: Pick<Store, 'approvals'> },
  user: SlackUser,
  account: Pick<LinkedAccount, 'userId'>,
): Promise<boolean | undefined> {
  return (await deps.store.approvals.knownRoles(user.teamId)).get(account.userId);
}
