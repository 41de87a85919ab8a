// A budget as one line, the month's spend and share beside it and its month-end forecast at the current
// rate: how /ps budget lists budgets, and the team digest below its spend.

import { billingMonthAt } from '../../../domain/billing-month.js';
import { monthEndForecastCents, spentThisMonth } from '../../../domain/budgets.js';
import { formatCents } from '../../../slack/block-kit/format.js';
import { mention } from '../../../slack/block-kit/text.js';
import type { Budget } from '../../../store/budgets.js';

/** One line: the budget, the month's spend and share, and the month-end forecast at the current rate. */
export function budgetLine(budget: Budget, now: number): string {
  const month = billingMonthAt(now);
  const who = budget.subject === 'team' ? '*Team*' : mention(budget.subject.userId);
  const amount = `${formatCents(budget.amountCents)} a month`;
  if (budget.spentAt === null) return `• ${who}: ${amount}; spend not counted yet`;
  const spent = spentThisMonth(budget, month);
  const share = budget.amountCents > 0 ? Math.floor((spent * 100) / budget.amountCents) : 100;
  const forecast = monthEndForecastCents(spent, budget.spentAt);
  const over = forecast > budget.amountCents ? ' ⚠️' : '';
  return (
    `• ${who}: ${amount}; ${formatCents(spent)} spent (${share}%), ` +
    `about ${formatCents(forecast)} by month end at this rate${over}`
  );
}

/** The digest's budgets section: every budget of the team a line; undefined when it has none. */
export function budgetsText(budgets: readonly Budget[], now: number): string | undefined {
  if (budgets.length === 0) return undefined;
  return `*Budgets*\n${budgets.map((budget) => budgetLine(budget, now)).join('\n')}`;
}
