// Deciding a request the budget gate opened: only an administrator of the requester's Paperspace team
// may (Paperspace judges nothing here, as an approved start runs with the requester's own key), and
// "Approve and raise the budget" raises the spent budget by the step the request offers, audited.
import { teamRoleOf } from '../../domain/team-role.js';
import type { ReadableRequest } from '../../store/approval-requests.js';
import type { BudgetSubject } from '../../store/budgets.js';
import type { LinkedAccount } from '../../vault/key-vault.js';
import type { Decider } from './decider.js';

const ADMINISTRATORS_ONLY =
  "Only an administrator of the requester's Paperspace team can decide this request";

/** Why the clicker may not decide a request past a budget; undefined when they may. */
export async function budgetRefusal(
  decider: Decider,
  request: ReadableRequest,
  account: LinkedAccount,
): Promise<string | undefined> {
  if (account.teamId !== request.paperspaceTeamId) return `${ADMINISTRATORS_ONLY}.`;
  const client = await decider.deps.clients.forUser(decider.user);
  if (!client) return undefined;
  const role = await teamRoleOf(decider.deps, {
    user: decider.user,
    client,
    paperspaceUserId: account.userId,
  });
  return role.role === 'member' ? `${ADMINISTRATORS_ONLY}, and ${role.why}.` : undefined;
}

/** The budget a request past a budget is about, as the store names it. */
function budgetSubjectOf(budget: string): BudgetSubject {
  return budget === 'team' ? 'team' : { userId: budget };
}

/** Raises the budget the request was stopped by, audited with the approver; after the approval acted. */
export async function raiseBudget(decider: Decider, request: ReadableRequest, cents: number): Promise<void> {
  const { overBudget } = request.details;
  if (overBudget === undefined || request.paperspaceTeamId === null) return;
  const { deps, user } = decider;
  const place = {
    teamId: request.teamId,
    paperspaceTeamId: request.paperspaceTeamId,
    subject: budgetSubjectOf(overBudget.budget),
  };
  const current = (await deps.store.budgets.list(place.teamId, place.paperspaceTeamId)).find(
    (budget) => (budget.subject === 'team' ? 'team' : budget.subject.userId) === overBudget.budget,
  );
  // Removed meanwhile: nothing stops the person any more, so there is nothing to raise.
  if (current === undefined) return;
  await deps.audit.run(
    { user, action: 'budget.raise', resourceId: request.id, note: `${overBudget.budget} by ${cents} cents` },
    () =>
      deps.store.budgets.set({
        ...place,
        amountCents: current.amountCents + cents,
        setBy: user.userId,
        at: deps.now(),
      }),
  );
}
