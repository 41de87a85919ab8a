// The budget alerts: on every tick, each budget's counted spend against 50%, 80% and 100% of it. Each
// threshold reached is claimed in the store before anything is posted (once a month per budget,
// whichever replica asks first, and never again after a restart); a budget found past several at once
// (one set below what is already spent) claims them all and says the highest. A person's budget alerts
// them by DM; the team's, the approvals channel or, with none set, each linked administrator by DM.
// The tick reads only the store: the spend was counted from the scheduler's list (budget-check.ts).

import { billingMonthAt } from '../../domain/billing-month.js';
import { ALERT_THRESHOLDS, shareSpent, spentThisMonth } from '../../domain/budgets.js';
import { describeError } from '../../errors/describe-error.js';
import { postIn } from '../../slack/posting.js';
import type { Budget } from '../../store/budgets.js';
import { createApprovers } from '../approvals/approvers.js';
import type { JobResources } from '../job-needs.js';
import { budgetAlertMessage } from './blocks/budget-messages.js';
import type { BudgetTeams } from './budget-teams.js';

export const budgetAlertNeeds = {
  store: ['budgets', 'approvals', 'vaultEntries'],
  uses: ['slack', 'pacer', 'logger', 'now', 'clients', 'replicaId'],
} as const;

type AlertDeps = Pick<JobResources, (typeof budgetAlertNeeds)['uses'][number]> & {
  store: Pick<JobResources['store'], (typeof budgetAlertNeeds)['store'][number]>;
};

/** Checks every budget's thresholds once; notes which workspaces hold budgets for the count's `due`. */
export async function alertBudgets(deps: AlertDeps, teams: BudgetTeams): Promise<void> {
  const budgets = await deps.store.budgets.listAll();
  teams.note(budgets);
  const now = deps.now();
  const month = billingMonthAt(now);
  for (const budget of budgets) {
    if (budget.spentMonth !== month) continue;
    const share = shareSpent(budget, month);
    const reached = ALERT_THRESHOLDS.filter((threshold) => share >= threshold);
    let highest: number | undefined;
    for (const threshold of reached) {
      const claimed = await deps.store.budgets.claimAlert(
        { ...budget, month, threshold },
        { by: deps.replicaId, at: now },
      );
      if (claimed) highest = threshold;
    }
    if (highest === undefined) continue;
    try {
      await deliver(deps, budget, highest, spentThisMonth(budget, month));
    } catch (error) {
      deps.logger.warn({ error: describeError(error) }, 'could not deliver a budget alert');
    }
  }
}

async function deliver(
  deps: AlertDeps,
  budget: Budget,
  threshold: number,
  spentCents: number,
): Promise<void> {
  const web = await deps.slack(budget.teamId);
  const message = budgetAlertMessage(budget, threshold, spentCents);
  for (const channel of await recipientsOf(deps, budget)) {
    await postIn(web, { channel }, message, deps.pacer);
  }
}

/** Where a budget's alert goes: the person's DM, or the team's approvals channel or administrators. */
async function recipientsOf(deps: AlertDeps, budget: Budget): Promise<string[]> {
  if (budget.subject !== 'team') return [budget.subject.userId];
  const settings = await deps.store.approvals.settingsOf(budget.teamId, budget.paperspaceTeamId);
  if (settings?.channel) return [settings.channel];
  // The one who set it (an administrator), and the others Paperspace names as administrators to them;
  // where it names none, only the setter: a teammate's role is not known.
  const setter = { teamId: budget.teamId, userId: budget.setBy };
  const client = await deps.clients.forUser(setter);
  if (!client) return [setter.userId];
  const { approvers, basis } = await createApprovers(deps, { user: setter, client }, budget.paperspaceTeamId);
  const others = basis === 'unknown' ? [] : approvers.map((person) => person.userId);
  return [...new Set([setter.userId, ...others])];
}
