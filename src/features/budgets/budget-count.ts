// Counting what a team's budgets have spent this month: the figures /ps spend shows (one team-wide
// report, read with one linked person's key), the team's total for its budget and each person's
// machines for theirs, stored for the gate and the alerts to read without a Paperspace call.
import { billingMonthAt } from '../../domain/billing-month.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { Budget } from '../../store/budgets.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import { readSpend, type SpendReader, type SpendReport } from '../spend/spend-report.js';

export interface BudgetCounter extends Omit<SpendReader, 'store'> {
  store: SpendReader['store'] & Pick<Store, 'budgets'>;
}

/** Whose key counts: their Slack user, client, Paperspace id, and the machines it listed if known. */
export interface CountingPerson {
  user: SlackUser;
  client: PaperspaceClient;
  paperspaceUserId: string;
  listed?: readonly Machine[];
}

/** The month's spend in cents of one budget, from the team-wide report. */
function spentOf(budget: Budget, report: SpendReport): number {
  if (budget.subject === 'team') return Math.round(report.total * 100);
  const { userId } = budget.subject;
  const owner = report.owners.find((line) =>
    line.people.some((person) => person.slackUsers.some((slack) => slack.userId === userId)),
  );
  return Math.round((owner?.total ?? 0) * 100);
}

/** Counts and stores the spend of the team's budgets; answers them as counted (none: nothing read). */
export async function countBudgets(
  deps: BudgetCounter,
  person: CountingPerson,
  paperspaceTeamId: string,
): Promise<Budget[]> {
  const { teamId } = person.user;
  const budgets = await deps.store.budgets.list(teamId, paperspaceTeamId);
  if (budgets.length === 0) return [];
  const report = await readSpend(deps, { ...person, month: null, teamWide: true });
  const at = deps.now();
  const month = billingMonthAt(at);
  const spent = budgets.map((budget) => ({ subject: budget.subject, cents: spentOf(budget, report) }));
  await deps.store.budgets.recordSpend({ teamId, paperspaceTeamId, month, at, spent });
  return budgets.map((budget, index) => ({
    ...budget,
    spentCents: spent[index]?.cents ?? 0,
    spentMonth: month,
    spentAt: at,
  }));
}
