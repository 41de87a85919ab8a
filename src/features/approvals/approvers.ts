// Who may decide a request, among the people who linked a key, decided from what Paperspace says:
// - a create goes to the requester's team's administrators. v1 lists each team member with isAdmin
//   and isOwner, so they are read from the requester's own team list. The legacy API's users carry
//   no role: there the bot knows only what Paperspace's answers showed (a create it accepted, or
//   refused: approval_roles), and asks the known administrators; knowing none, it asks every linked
//   teammate not known to be a member and says so, since Paperspace then judges each approval.
// - a start, stop or restart goes to the machine's owner (the legacy API's `userId`). v1 does not say
//   who owns a machine: then it goes to the linked teammates, and Paperspace judges the approval.
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault } from '../../vault/key-vault.js';

export interface Teammate extends SlackUser {
  paperspaceUserId: string;
}

/**
 * How the approvers of a create were chosen: `listed`, Paperspace listed the administrators (v1);
 * `learned`, the teammates whose creates Paperspace accepted; `unknown`, Paperspace does not say.
 */
export type ApproverBasis = 'listed' | 'learned' | 'unknown';

/** Linked people of the same Slack workspace and Paperspace team, the requester excluded. */
export async function linkedTeammates(
  store: Pick<Store, 'vaultEntries'>,
  requester: SlackUser,
  paperspaceTeamId: string,
): Promise<Teammate[]> {
  const entries = await store.vaultEntries.list();
  return entries
    .filter(
      (entry) =>
        entry.teamId === requester.teamId &&
        entry.userId !== requester.userId &&
        entry.account.teamId === paperspaceTeamId,
    )
    .map((entry) => ({ teamId: entry.teamId, userId: entry.userId, paperspaceUserId: entry.account.userId }));
}

/** The Paperspace ids of the team's administrators and owners, when the API lists roles (v1). */
async function listedAdministrators(
  client: PaperspaceClient,
  logger: Pick<Logger, 'info'>,
): Promise<Set<string> | undefined> {
  try {
    const users = await client.users.list({});
    const roles = users.map((user) => user as { id: string; isAdmin?: unknown; isOwner?: unknown });
    if (!roles.some((user) => typeof user.isAdmin === 'boolean')) return undefined;
    return new Set(roles.filter((user) => user.isAdmin === true || user.isOwner === true).map((u) => u.id));
  } catch (error) {
    logger.info({ error: describeError(error) }, 'could not list the team to find its administrators');
    return undefined;
  }
}

/**
 * What Paperspace says of this person's role: v1 lists it; on the legacy API only a create it
 * accepted or refused shows it, and otherwise it is 'unknown'.
 */
export async function roleOf(
  deps: { store: Pick<Store, 'approvals'>; logger: Pick<Logger, 'info'> },
  person: { user: SlackUser; client: PaperspaceClient; paperspaceUserId: string },
): Promise<'admin' | 'member' | 'unknown'> {
  const listed = await listedAdministrators(person.client, deps.logger);
  if (listed) return listed.has(person.paperspaceUserId) ? 'admin' : 'member';
  const known = (await deps.store.approvals.knownRoles(person.user.teamId)).get(person.paperspaceUserId);
  return known === undefined ? 'unknown' : known ? 'admin' : 'member';
}

/**
 * Remembers what Paperspace's answer to a person's create showed: accepted, an administrator; refused
 * (403), not one. Never fails the create it follows: a lost note only means a wider request later.
 */
export async function learnRoleFromCreate(
  deps: {
    store: Pick<Store, 'approvals'>;
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

/** The linked administrators a create request goes to, and how they were known. */
export async function createApprovers(
  deps: { store: Pick<Store, 'vaultEntries' | 'approvals'>; logger: Pick<Logger, 'info'> },
  requester: { user: SlackUser; client: PaperspaceClient },
  paperspaceTeamId: string,
): Promise<{ approvers: Teammate[]; basis: ApproverBasis }> {
  const teammates = await linkedTeammates(deps.store, requester.user, paperspaceTeamId);
  const listed = await listedAdministrators(requester.client, deps.logger);
  if (listed) {
    return {
      approvers: teammates.filter((person) => listed.has(person.paperspaceUserId)),
      basis: 'listed',
    };
  }
  const roles = await deps.store.approvals.knownRoles(requester.user.teamId);
  const known = teammates.filter((person) => roles.get(person.paperspaceUserId) === true);
  if (known.length > 0) return { approvers: known, basis: 'learned' };
  return {
    approvers: teammates.filter((person) => roles.get(person.paperspaceUserId) !== false),
    basis: 'unknown',
  };
}

/**
 * The Slack people in this workspace whose linked key belongs to `paperspaceUserId` (usually one; a
 * person may have linked the same account from two Slack users), oldest link first.
 */
export async function linkedPeopleOf(
  store: Pick<Store, 'vaultEntries'>,
  teamId: string,
  paperspaceUserId: string,
): Promise<SlackUser[]> {
  const entries = await store.vaultEntries.list();
  return entries
    .filter((entry) => entry.teamId === teamId && entry.account.userId === paperspaceUserId)
    .map((entry) => ({ teamId: entry.teamId, userId: entry.userId }));
}

/**
 * The Paperspace id of the machine's owner. The contract's machine lists no owner, but the API sends
 * `userId` (the schema passes it through); undefined when it is missing, as on v1.
 */
export function ownerIdOf(machine: Machine): string | undefined {
  const owner: unknown = (machine as { userId?: unknown }).userId;
  return typeof owner === 'string' && owner !== '' ? owner : undefined;
}

/** "Maya Chen (maya@example.com)" for a Paperspace user the person's key can list, else the id. */
export async function paperspaceNameOf(client: PaperspaceClient, paperspaceUserId: string): Promise<string> {
  try {
    const [user] = (await client.users.list({ id: paperspaceUserId })).filter(
      (u) => u.id === paperspaceUserId,
    );
    if (!user) return paperspaceUserId;
    const name = `${user.firstname} ${user.lastname}`.trim();
    return name ? `${name} (${user.email})` : user.email;
  } catch {
    // The name is a courtesy: the id still names the owner when the list cannot be read.
    return paperspaceUserId;
  }
}
