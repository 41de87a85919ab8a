// Who may decide a request, among the people who linked a key: for a create, the requester's
// teammates on the same Paperspace team (the contract's users list carries no role, so Paperspace
// itself is the judge: an approver who is not an administrator is refused, and the request stays open
// for the others); for a start, stop or restart, the machine's owner.
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

/** Linked people of the same Slack workspace and Paperspace team, the requester excluded. */
export async function linkedTeammates(
  store: Pick<Store, 'vaultEntries'>,
  requester: SlackUser,
  paperspaceTeamId: string,
): Promise<SlackUser[]> {
  const entries = await store.vaultEntries.list();
  return entries
    .filter(
      (entry) =>
        entry.teamId === requester.teamId &&
        entry.userId !== requester.userId &&
        entry.account.teamId === paperspaceTeamId,
    )
    .map((entry) => ({ teamId: entry.teamId, userId: entry.userId }));
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
 * `userId` (the schema passes it through); undefined when it is missing.
 */
export function ownerIdOf(machine: Machine): string | undefined {
  const owner: unknown = (machine as { userId?: unknown }).userId;
  return typeof owner === 'string' && owner !== '' ? owner : undefined;
}
