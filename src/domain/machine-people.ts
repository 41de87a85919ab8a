// Who a Paperspace user and team are to the people of a Slack workspace: the Slack people whose linked
// keys belong to a Paperspace user or team, and a Paperspace user's name. Whose a machine is, is the
// owner rule's (machine-owner.ts).
import type { PaperspaceClient } from '../paperspace/client.js';
import type { User } from '../paperspace/schemas.js';
import type { SlackUser } from '../store/slack-user.js';
import type { Store } from '../store/store.js';

export interface Teammate extends SlackUser {
  paperspaceUserId: string;
}

/** Linked people of the same Slack workspace and Paperspace team, the given person excluded. */
export async function linkedTeammates(
  store: Pick<Store, 'vaultEntries'>,
  person: SlackUser,
  paperspaceTeamId: string,
): Promise<Teammate[]> {
  const entries = await store.vaultEntries.list();
  return entries
    .filter(
      (entry) =>
        entry.teamId === person.teamId &&
        entry.userId !== person.userId &&
        entry.account.teamId === paperspaceTeamId,
    )
    .map((entry) => ({ teamId: entry.teamId, userId: entry.userId, paperspaceUserId: entry.account.userId }));
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

/** "Maya Chen (maya@example.com)" for a Paperspace user the person's key can list, else the id. */
export async function paperspaceNameOf(client: PaperspaceClient, paperspaceUserId: string): Promise<string> {
  try {
    const [user] = (await client.users.list({ id: paperspaceUserId })).filter(
      (u) => u.id === paperspaceUserId,
    );
    return user ? paperspaceUserLabel(user) : paperspaceUserId;
  } catch {
    // The name is a courtesy: the id still names the owner when the list cannot be read.
    return paperspaceUserId;
  }
}

/** "Maya Chen (maya@example.com)", or the e-mail alone when Paperspace has no name for the user. */
export function paperspaceUserLabel(user: User): string {
  const name = `${user.firstname} ${user.lastname}`.trim();
  return name === '' ? user.email : `${name} (${user.email})`;
}

/** What a person may type to name a Paperspace user, lower case: first name, full name, e-mail, id. */
export function typedNamesOf(user: User): string[] {
  return [user.firstname, `${user.firstname} ${user.lastname}`.trim(), user.email, user.id].map((name) =>
    name.toLowerCase(),
  );
}
