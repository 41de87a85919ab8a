// The budget gate: every start and create the bot makes for a person passes here first, whichever
// door it came through (a command, a button, a workflow step, Slackbot, an approval). It reads the
// spend the budget job last counted (no Paperspace call unless a budget is spent), and a member whose
// own budget or the team's is spent is stopped with OverBudgetError, which the approvals feature turns
// into a request to the administrators. Administrators are told, not stopped; so is a person
// Paperspace does not say the role of (the legacy API without their access token), as with approvals.

import { billingMonthAt } from '../../domain/billing-month.js';
import { spentBudgetFor, spentThisMonth } from '../../domain/budgets.js';
import { teamRoleOf } from '../../domain/team-role.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { spentOfBudget } from '../../slack/block-kit/format.js';
import { mention } from '../../slack/block-kit/text.js';
import type { Budget } from '../../store/budgets.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { FeatureDeps } from '../feature-deps.js';

export type GatedAction = 'start' | 'create';

/** What the gate reads: the budgets, the role notes, and the person's linked account. */
export type BudgetGateDeps = FeatureDeps<'budgets' | 'approvals', 'vault' | 'now'>;

/** The spent budget that stopped a member, and what it stood at. */
export interface SpentBudget {
  budget: Budget;
  spentCents: number;
}

/** A member's start or create stopped by a spent budget; approvals/budget-route.ts makes it a request. */
export class OverBudgetError extends UserFacingError {
  override name = 'OverBudgetError';
  constructor(
    readonly spent: SpentBudget,
    readonly action: GatedAction,
  ) {
    super(
      `${budgetLabel(spent.budget)} is spent (${spentLine(spent)}), so I did not ${action} it with your key.`,
    );
  }
}

/** "Your budget", "The team's budget": which budget a sentence is about, for the person it stops. */
function budgetLabel(budget: Budget, reader?: string): string {
  if (budget.subject === 'team') return "The team's budget";
  return budget.subject.userId === reader || reader === undefined
    ? 'Your budget'
    : `The budget of ${mention(budget.subject.userId)}`;
}

function spentLine({ budget, spentCents }: SpentBudget): string {
  return spentOfBudget(spentCents, budget.amountCents);
}

/**
 * Lets the start or create go on, answering what to tell an administrator whose budget is spent
 * (undefined: nothing to tell); throws OverBudgetError for a member.
 */
export async function passBudgetGate(
  deps: BudgetGateDeps,
  actor: { user: SlackUser; client: PaperspaceClient },
  action: GatedAction,
): Promise<string | undefined> {
  const account = await deps.vault.account(actor.user);
  if (!account?.teamId) return undefined;
  const now = deps.now();
  const budgets = await deps.store.budgets.list(actor.user.teamId, account.teamId);
  const budget = spentBudgetFor(budgets, actor.user.userId, now);
  if (budget === undefined) return undefined;
  const spent = { budget, spentCents: spentThisMonth(budget, billingMonthAt(now)) };
  const role = await teamRoleOf(deps, { ...actor, paperspaceUserId: account.userId });
  if (role.role === 'member') throw new OverBudgetError(spent, action);
  return `💸 ${budgetLabel(budget)} is spent (${spentLine(spent)}); as an administrator you are not stopped, and the ${action} went ahead.`;
}
