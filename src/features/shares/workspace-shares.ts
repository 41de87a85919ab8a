// Shares of a workspace the app is leaving (app_uninstalled, tokens_revoked): an accessor share (v1)
// gave teammates access on Paperspace, and only the sharer's key, which the uninstall then purges, can
// take it back. So the access still in place is removed first, with each sharer's key, within a bounded
// time (Slack is not waiting, but a hung API must not keep the keys forever).
import type { Delegation } from '../../store/delegations.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { type RevokeDeps, revokeGrants } from './accessor-grants.js';

/** How long removing a leaving workspace's shared access may take in all before the keys are purged anyway. */
const LEAVING_REVOKE_BUDGET_MS = 20_000;

export interface LeftAccess {
  share: Delegation;
  /** The grants still in place after the attempt. */
  left: NonNullable<Delegation['grants']>;
  /** Why they were not removed, as a sentence (no key, Paperspace's refusal, out of time). */
  failure: string | null;
}

/**
 * Removes, with each sharer's key, the access the workspace's accessor shares still give, and says
 * what could not be removed. Each removal is audited (share.revoke) by revokeGrants; a failure is
 * logged without the key.
 */
export async function revokeLeavingWorkspaceShares(
  deps: RevokeDeps & {
    store: RevokeDeps['store'] & { delegations: { withGrantsLeft(teamId: string): Promise<Delegation[]> } };
    clients: PaperspaceClientFactory;
  },
  teamId: string,
  budgetMs: number = LEAVING_REVOKE_BUDGET_MS,
): Promise<LeftAccess[]> {
  // One deadline for every call: a workspace of many shares gets the budget, not the budget per share.
  const signal = AbortSignal.timeout(budgetMs);
  const left: LeftAccess[] = [];
  for (const share of await deps.store.delegations.withGrantsLeft(teamId)) {
    const client = await deps.clients.forUser(share).catch(() => undefined);
    const after = await revokeGrants(deps, client, share, { signal, maxRetries: 1 });
    const remaining = (after.grants ?? []).filter((grant) => !grant.revoked);
    if (remaining.length > 0) left.push({ share: after, left: remaining, failure: after.revokeFailure });
  }
  return left;
}

/** What was left in place, for the audit record of the purge and the log. */
export function describeLeftAccess(left: readonly LeftAccess[]): string {
  return left
    .map(
      ({ share, left: grants, failure }) =>
        `share by ${share.userId}: accessor ${grants.map((grant) => `${grant.paperspaceUserId} on ${grant.machineId}`).join(', ')} not removed` +
        (failure ? ` (${failure})` : ''),
    )
    .join('; ');
}
