// Whether the person's Paperspace account is an individual account or a team, as Paperspace says it.
// Every account carries a team id (an individual account has one too), so the id cannot tell them
// apart. What does: getUsers lists the users of the caller's account, which on an individual account
// is the caller alone and on a team every member (the contract, "Accounts are either an individual
// account or a team"). A team of one administrator lists one user as well; Paperspace then refuses the
// create and says it needs a user, which the person sees on the form.
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { RequestOptions } from '../../paperspace/http.js';
import type { User } from '../../paperspace/schemas.js';

export type AccountKind = { kind: 'individual' } | { kind: 'team'; teamId: string };

export const INDIVIDUAL: AccountKind = { kind: 'individual' };

/** The account's kind read from its users, with the users (a team's machines are assigned to one). */
export async function readAccountKind(
  client: PaperspaceClient,
  options?: RequestOptions,
): Promise<{ account: AccountKind; users: User[] }> {
  const users = await client.users.list({}, options);
  return { account: accountKindOf(users), users };
}

function accountKindOf(users: readonly User[]): AccountKind {
  const [first] = users;
  return users.length > 1 && first !== undefined ? { kind: 'team', teamId: first.teamId } : INDIVIDUAL;
}
