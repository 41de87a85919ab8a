// The billing month: Paperspace bills by UTC calendar month, named `YYYY-MM` in its API and in
// `/ps usage` and `/ps spend`. Every reader of a month (usage, spend, the digest, an approval's rate)
// takes it from here. Its UTC bounds are the API client's (monthBounds in
// paperspace/v1/usage-estimate.ts: v1's estimate needs them, and paperspace/ sits below domain/).
import { UserFacingError } from '../errors/user-facing-error.js';

const BILLING_MONTH = /^(\d{4})-(\d{2})$/;

/** `YYYY-MM` of the UTC month containing `now`. */
export function billingMonthAt(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/**
 * The billing month a person asked for (`YYYY-MM`), or the current UTC month when null. A later month
 * is refused: it has not been used, and Paperspace has nothing to bill.
 */
export function billingMonthAsked(month: string | null, now: number): string {
  const current = billingMonthAt(now);
  // YYYY-MM compares as text.
  if (month !== null && month > current) {
    throw new UserFacingError(
      `${month} has not started yet: usage is known for ${current} and earlier months.`,
    );
  }
  return month ?? current;
}

/** The year and month (1-12) of a `YYYY-MM` billing month; undefined for anything else. */
function parseBillingMonth(billingMonth: string): { year: number; month: number } | undefined {
  const match = BILLING_MONTH.exec(billingMonth);
  if (!match) return undefined;
  return { year: Number(match[1]), month: Number(match[2]) };
}

// Made once: toLocaleString would build a new formatter on every call, the costliest step of drawing
// a Usage card.
const MONTH_NAME = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `May 2024` for `2024-05`; anything else is shown as sent. */
export function billingMonthName(billingMonth: string): string {
  const parsed = parseBillingMonth(billingMonth);
  if (!parsed) return billingMonth;
  return MONTH_NAME.format(new Date(Date.UTC(parsed.year, parsed.month - 1, 1)));
}

/** 31 for `2024-05`; 0 for a month that cannot be read. */
export function daysInMonth(billingMonth: string): number {
  const parsed = parseBillingMonth(billingMonth);
  if (!parsed) return 0;
  return new Date(Date.UTC(parsed.year, parsed.month, 0)).getUTCDate();
}
