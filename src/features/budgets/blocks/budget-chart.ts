// The budgets as a bar chart, for those who would rather look than read: per budget, the month's
// spend, where it ends at the current rate and the budget itself, side by side. A chart's labels are
// plain text, not mentions, so a person's budget is labelled with the name on their Slack profile.
// The same amounts go into the message's text for screen readers and clients without charts.
import type { KnownBlock } from '@slack/types';
import { billingMonthAt, billingMonthName } from '../../../domain/billing-month.js';
import { monthEndForecastCents, spentThisMonth } from '../../../domain/budgets.js';
import { barChart, chartBlock, chartText } from '../../../slack/block-kit/bar-chart.js';
import { formatMoney } from '../../../slack/block-kit/format.js';
import type { Budget } from '../../../store/budgets.js';

export interface BudgetChart {
  block: KnownBlock;
  /** The chart's amounts in words (plain text, not yet escaped for mrkdwn). */
  text: string;
}

/** The label of a budget: "Team", or the person's Slack name (`names`, by Slack user id). */
function labelOf(budget: Budget, names: ReadonlyMap<string, string>): string {
  if (budget.subject === 'team') return 'Team';
  return names.get(budget.subject.userId) ?? 'A teammate';
}

/** The chart of the budgets whose spend was counted; none when no spend was counted yet. */
export function budgetChart(
  budgets: readonly Budget[],
  names: ReadonlyMap<string, string>,
  now: number,
): BudgetChart | undefined {
  const month = billingMonthAt(now);
  const counted = budgets.filter((budget) => budget.spentAt !== null);
  const spent = counted.map((budget) => spentThisMonth(budget, month));
  const chart = barChart({
    title: `Budgets · ${billingMonthName(month)}`,
    categories: counted.map((budget) => labelOf(budget, names)),
    series: [
      { name: 'Spent', values: spent.map((cents) => cents / 100) },
      {
        name: 'Month-end forecast',
        values: counted.map(
          (budget, at) => monthEndForecastCents(spent[at] ?? 0, budget.spentAt ?? now) / 100,
        ),
      },
      { name: 'Budget', values: counted.map((budget) => budget.amountCents / 100) },
    ],
    yLabel: 'US dollars',
    others: 'Other budgets',
  });
  if (chart === undefined) return undefined;
  return { block: chartBlock(chart), text: chartText(chart, formatMoney) };
}
