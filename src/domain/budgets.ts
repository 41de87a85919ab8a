// What a budget means, for every reader of one (the gate before a start or a create, /ps budget, the
// alerts, the digest): a monthly amount in whole cents against the spend /ps spend shows, counted
// afresh each UTC calendar month; spent once the month's spend reaches the amount; and its month-end
// forecast, the spend so far carried on at the same rate to the end of the month.
import type { Budget } from '../store/budgets.js';
import { billingMonthAt, daysInMonth } from './billing-month.js';

/** The shares of a budget whose reaching is told, in percent, lowest first. */
export const ALERT_THRESHOLDS = [50, 80, 100] as const;

/** The month's spend counted for the budget, in cents: nothing yet when its count is of an earlier month. */
export function spentThisMonth(budget: Pick<Budget, 'spentCents' | 'spentMonth'>, month: string): number {
  return budget.spentMonth === month ? (budget.spentCents ?? 0) : 0;
}

/** Percent of the budget the month has spent, rounded down (99.9% has not reached 100%). */
export function shareSpent(budget: Budget, month: string): number {
  if (budget.amountCents <= 0) return 100;
  return Math.floor((spentThisMonth(budget, month) * 100) / budget.amountCents);
}

/** Whether a budget applies to a person: the team's does to everyone in it, a person's to them alone. */
const appliesTo = (budget: Budget, userId: string) =>
  budget.subject === 'team' || budget.subject.userId === userId;

/**
 * The budget that stops a start or a create by `userId` now: their own, else the team's, once the
 * month's spend has reached it; undefined when neither is spent.
 */
export function spentBudgetFor(budgets: readonly Budget[], userId: string, now: number): Budget | undefined {
  const month = billingMonthAt(now);
  const spent = budgets.filter(
    (budget) => appliesTo(budget, userId) && spentThisMonth(budget, month) >= budget.amountCents,
  );
  return spent.find((budget) => budget.subject !== 'team') ?? spent[0];
}

/** The month's spend at `now` carried on at the same rate to the month's end, in cents. */
export function monthEndForecastCents(spentCents: number, now: number): number {
  const month = billingMonthAt(now);
  const start = Date.parse(`${month}-01T00:00:00Z`);
  const length = daysInMonth(month) * 86_400_000;
  const elapsed = Math.max(now - start, 3_600_000);
  return Math.round((spentCents * length) / elapsed);
}

/**
 * What "Approve and raise the budget" adds, in cents: what takes the budget back above the month's
 * spend, and at least a tenth of it, in whole dollars.
 */
export function raiseStepCents(overBudget: { amountCents: number; spentCents: number }): number {
  const needed = overBudget.spentCents - overBudget.amountCents;
  const step = Math.max(needed + 100, Math.round(overBudget.amountCents / 10), 100);
  return Math.ceil(step / 100) * 100;
}
