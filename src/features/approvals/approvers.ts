// Who may decide a create request, among the people who linked a key, decided from what Paperspace
// says (domain/team-role.ts): the requester's team's administrators. v1 lists each team member with
// isAdmin and isOwner, so they are read from the requester's own team list. The legacy API's users
// carry no role: there the bot knows only what Paperspace's answers showed (a create it accepted, or
// refused), and asks the known administrators; knowing none, it asks every linked teammate not known
// to be a member and says so, since Paperspace then judges each approval.
// A start, stop or restart goes to the machine's owner instead (owner-route.ts, domain/machine-owner.ts),
// and for a machine with no owner yet to these same administrators.

import { linkedTeammates, type Teammate } from '../../domain/machine-people.js';
import { learnedRoles, listedAdministrators } from '../../domain/team-role.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

/**
 * How the approvers of a create were chosen: `listed`, Paperspace listed the administrators (v1);
 * `learned`, the teammates whose creates Paperspace accepted; `unknown`, Paperspace does not say.
 */
export type ApproverBasis = 'listed' | 'learned' | 'unknown';

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
  const roles = await learnedRoles(deps, requester.user.teamId);
  const known = teammates.filter((person) => roles.get(person.paperspaceUserId) === true);
  if (known.length > 0) return { approvers: known, basis: 'learned' };
  return {
    approvers: teammates.filter((person) => roles.get(person.paperspaceUserId) !== false),
    basis: 'unknown',
  };
}
