// Whether a person administers their Paperspace team, as Paperspace itself says. Team-wide spend, the
// team digest, where the team's requests go and the cards' Settings, Access and Destroy on someone
// else's machine all ask this one question here, so no two of them can answer it differently. (What
// applies to the whole Slack workspace asks Slack as well: slack/workspace-admin.ts.)
// - v1 answers it directly (`GET /auth/session`: isAdmin or isOwner of the team).
// - The legacy API has no role anywhere (its users carry none). An individual account's only user is
//   its own administrator. Otherwise what a create showed decides (accepted: an administrator;
//   refused, 403: a member), remembered here in the store's role notes; failing that, the one read
//   only an administrator may make: listing the team's shared drives with the person's GraphQL access
//   token. Without that token Paperspace does not say: the role is `unknown`, and each caller decides
//   whether that refuses (spend, digest) or lets Paperspace judge the action itself (cards, requests).
import { describeError } from '../errors/describe-error.js';
import { UserFacingError } from '../errors/user-facing-error.js';
import type { Logger } from '../logger.js';
import type { PaperspaceClient } from '../paperspace/client.js';
import { MissingAccessTokenError, PaperspacePermissionError } from '../paperspace/errors.js';
import type { User } from '../paperspace/schemas.js';
import type { SlackUser } from '../store/slack-user.js';
import type { Store } from '../store/store.js';
import type { KeyVault, LinkedAccount } from '../vault/key-vault.js';

export type TeamRole =
  | { role: 'admin' }
  /** `why` finishes "Only team administrators can …, and …". */
  | { role: 'member' | 'unknown'; why: string };

/** The person asked about: their Slack user, a client with their own key, and their Paperspace id. */
export interface TeamPerson {
  user: SlackUser;
  client: PaperspaceClient;
  paperspaceUserId: string;
}

/** The store's role notes: what each person's creates showed of their role. */
export type RoleNotes = { store: { approvals: Pick<Store['approvals'], 'knownRoles'> } };

export async function teamRoleOf(
  deps: RoleNotes,
  person: TeamPerson,
  /** The team's users, when the caller has listed them already; listed here otherwise (legacy API). */
  users?: readonly User[],
): Promise<TeamRole> {
  const { client } = person;
  if (client.capabilities.whoAmI) {
    const identity = await client.account.whoAmI();
    if (identity?.isAdmin) return { role: 'admin' };
    return {
      role: 'member',
      why: 'Paperspace says your key belongs to a member of the team, not an administrator',
    };
  }
  if ((users ?? (await client.users.list({}))).length <= 1) return { role: 'admin' };
  const learned = await learnedRole(deps, person.user, person.paperspaceUserId);
  if (learned === true) return { role: 'admin' };
  if (learned === false) {
    return {
      role: 'member',
      why: 'Paperspace refused a machine you created, which only administrators may do',
    };
  }
  try {
    await client.sharedDrives.list({ first: 1 });
    return { role: 'admin' };
  } catch (error) {
    if (error instanceof PaperspacePermissionError) {
      return {
        role: 'member',
        why: 'Paperspace refused your access token what only administrators may read',
      };
    }
    if (error instanceof MissingAccessTokenError) {
      return {
        role: 'unknown',
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
  deps: RoleNotes & { vault: Pick<KeyVault, 'account'> },
  user: SlackUser,
  client: PaperspaceClient,
  what: string,
): Promise<LinkedAccount & { teamId: string }> {
  const account = await deps.vault.account(user);
  if (account === undefined) {
    throw new UserFacingError('Your Paperspace key is no longer linked: link it again with /ps login.');
  }
  const role = await teamRoleOf(deps, { user, client, paperspaceUserId: account.userId });
  if (role.role !== 'admin')
    throw new UserFacingError(`Only team administrators can ${what}, and ${role.why}.`);
  const { teamId } = account;
  if (!teamId) {
    throw new UserFacingError(
      'Your linked key does not say which Paperspace team it belongs to: link it again with /ps login.',
    );
  }
  return { ...account, teamId };
}

/** What the person's creates showed of their role (learnRoleFromCreate notes it), if any did. */
async function learnedRole(
  deps: RoleNotes,
  user: SlackUser,
  paperspaceUserId: string,
): Promise<boolean | undefined> {
  return (await deps.store.approvals.knownRoles(user.teamId)).get(paperspaceUserId);
}

/**
 * Remembers what Paperspace's answer to a person's create showed: accepted, an administrator; refused
 * (403), not one. Never fails the create it follows: a lost note only means a wider request later.
 */
export async function learnRoleFromCreate(
  deps: {
    store: { approvals: Pick<Store['approvals'], 'noteRole'> };
    vault: Pick<KeyVault, 'account'>;
    logger: Pick<Logger, 'warn'>;
    now: () => number;
  },
  user: SlackUser,
  accepted: boolean,
): Promise<void> {
  try {
    const account = await deps.vault.account(user);
    if (account) await deps.store.approvals.noteRole(user.teamId, account.userId, accepted, deps.now());
  } catch (error) {
    deps.logger.warn({ error: describeError(error) }, 'could not remember what a create showed of a role');
  }
}

/**
 * The Paperspace ids of the team's administrators and owners, when the API lists roles (v1), as the
 * given person's key reads them; undefined on the legacy API, or when the list cannot be read.
 */
export async function listedAdministrators(
  client: PaperspaceClient,
  logger: Pick<Logger, 'info'>,
): Promise<Set<string> | undefined> {
  try {
    return administratorsAmong(await client.users.list({}));
  } catch (error) {
    logger.info({ error: describeError(error) }, 'could not list the team to find its administrators');
    return undefined;
  }
}

/**
 * The Paperspace ids of the administrators and owners among a team's users already listed, when the API
 * lists roles (v1); undefined when the users carry none (the legacy API).
 */
export function administratorsAmong(users: readonly User[]): Set<string> | undefined {
  const roles = users.map((user) => user as { id: string; isAdmin?: unknown; isOwner?: unknown });
  if (!roles.some((user) => typeof user.isAdmin === 'boolean')) return undefined;
  return new Set(roles.filter((user) => user.isAdmin === true || user.isOwner === true).map((u) => u.id));
}

/** The role notes a create request reads: which linked teammates Paperspace showed are administrators. */
export async function learnedRoles(
  deps: RoleNotes,
  slackTeamId: string,
): Promise<ReadonlyMap<string, boolean>> {
  return deps.store.approvals.knownRoles(slackTeamId);
}
