// What people read of budgets: the list (/ps budget, each budget with the month's spend and its
// month-end forecast at the current rate), the answer to a change, and the 50/80/100% alert. Amounts
// are written as /ps spend writes them; whose a budget is, by mention.

import { billingMonthAt, billingMonthName } from '../../../domain/billing-month.js';
import { section } from '../../../slack/block-kit/elements.js';
import { spentOfBudget } from '../../../slack/block-kit/format.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  escapeMrkdwn,
  mention,
  message,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import type { Budget, BudgetSubject } from '../../../store/budgets.js';
import { budgetLine } from '../../spend/blocks/budget-lines.js';
import { budgetChart } from './budget-chart.js';

/** "the team's budget", "the budget of @sam". */
export function budgetName(subject: BudgetSubject): string {
  return subject === 'team' ? "the team's budget" : `the budget of ${mention(subject.userId)}`;
}

/** Said under every list and change: what is counted, and what is not gated. */
export const COUNTED_NOT_GATED =
  'Spend is what `/ps spend` shows (Paperspace’s utilization, or the bot’s estimate on API v1). A start made outside Slack is counted but not gated.';

/**
 * Each budget with its spend and forecast, and the same as a chart; `names` labels people's budgets
 * in the chart (by Slack user id), where a mention cannot be drawn.
 */
export function budgetListMessage(
  budgets: readonly Budget[],
  names: ReadonlyMap<string, string>,
  now: number,
): SlackMessage {
  if (budgets.length === 0) {
    return plainMessage(
      'Your team has no budgets. An administrator sets one with `/ps budget team $2000` or `/ps budget @sam $300`.',
    );
  }
  const counted = budgets.map((budget) => budget.spentAt ?? 0).reduce((a, b) => Math.max(a, b), 0);
  const asOf = counted > 0 ? `, counted ${slackDate(counted, '{date_short_pretty} at {time}')}` : '';
  const lines = budgets.map((budget) => budgetLine(budget, now));
  const text = `💰 Budgets for ${billingMonthName(billingMonthAt(now))}${asOf}:\n${lines.join('\n')}\n${COUNTED_NOT_GATED}`;
  const chart = budgetChart(budgets, names, now);
  if (chart === undefined) return plainMessage(text);
  return message([section(text), chart.block], `${text}\n${escapeMrkdwn(chart.text)}`);
}

/** The alert that a budget reached a share of itself. */
export function budgetAlertMessage(budget: Budget, threshold: number, spentCents: number): SlackMessage {
  const name = budgetName(budget.subject);
  const lead = threshold >= 100 ? '🛑' : '⚠️';
  const gate =
    threshold >= 100
      ? ' Starts and creates through the bot now go to the administrators as requests (administrators are not stopped).'
      : '';
  return plainMessage(
    `${lead} ${name.charAt(0).toUpperCase()}${name.slice(1)} has reached ${threshold}%: ` +
      `${spentOfBudget(spentCents, budget.amountCents)}.${gate}`,
  );
}
