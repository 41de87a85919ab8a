// Number formatting for people: byte strings as GiB, storage as a bar, seconds as hours and minutes,
// decimal-string rates as money. Missing or unreadable values become a dash rather than "NaN".

import { billingMonthName } from '../../domain/billing-month.js';
import type { HourlyRate } from '../../domain/hourly-rate.js';
import { LIST_PRICES_RECORDED } from '../../domain/list-prices.js';

export const MISSING = '—';

const GIB = 1024 ** 3;

/** The API sends byte counts as strings ("53687091200"); null or garbage yields undefined. */
function parseBytes(bytes: string | number | null | undefined): number | undefined {
  if (bytes === null || bytes === undefined || bytes === '') return undefined;
  const value = Number(bytes);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** `32 GiB`, `7.5 GiB`, or a dash when the value is missing. */
export function formatGiB(bytes: string | number | null | undefined): string {
  const value = parseBytes(bytes);
  if (value === undefined) return MISSING;
  return `${formatNumber(value / GIB)} GiB`;
}

/** At most one decimal, and none when the value is whole: 50, 7.5, 0.3. */
function formatNumber(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Number.isInteger(rounded) ? String(rounded) : rounded.toFixed(1);
}

const BAR_CELLS = 10;

/** `▓▓▓▓░░░░░░ 40% of 50 GiB`; a dash for what is unknown (`— of 50 GiB`, or `—` without a total). */
export function storageBar(
  used: string | number | null | undefined,
  total: string | number | null | undefined,
): string {
  const totalBytes = parseBytes(total);
  if (totalBytes === undefined || totalBytes === 0) return MISSING;
  const usedBytes = parseBytes(used);
  if (usedBytes === undefined) return `${MISSING} of ${formatGiB(totalBytes)}`;
  const ratio = Math.min(1, usedBytes / totalBytes);
  const filled = Math.round(ratio * BAR_CELLS);
  const bar = '▓'.repeat(filled) + '░'.repeat(BAR_CELLS - filled);
  return `${bar} ${Math.round(ratio * 100)}% of ${formatGiB(totalBytes)}`;
}

/**
 * `12 h 05 min`, `45 min`, `under 1 min`, `0 min`: the way a bill counts time, and the one way every
 * message shows a duration that is billed (never `0.05 h` beside `2 min`). A few seconds that cost a
 * cent are "under 1 min", never "0 min" beside a price.
 */
export function formatHoursMinutes(seconds: number): string {
  if (seconds > 0 && seconds < 60) return 'under 1 min';
  const totalMinutes = Math.floor(Math.max(0, seconds) / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  if (hours === 0) return `${minutes} min`;
  return `${hours} h ${String(minutes).padStart(2, '0')} min`;
}

/** `$12.34`. Paperspace bills in US dollars. */
export function formatMoney(amount: number): string {
  return `$${(Math.round(amount * 100) / 100).toFixed(2)}`;
}

/** An amount kept in whole cents (a budget and its counted spend), written as formatMoney writes dollars. */
export function formatCents(cents: number): string {
  return formatMoney(cents / 100);
}

/** A month's spend against its budget, in the one wording every budget message uses: "$312.40 of $300.00 this month". */
export function spentOfBudget(spentCents: number, budgetCents: number): string {
  return `${formatCents(spentCents)} of ${formatCents(budgetCents)} this month`;
}

/**
 * A rate as Paperspace prices it: whole cents as `$2.30` (never `$2.3`), a finer rate with its own
 * precision (`$0.0045`), so a price reads the same on every card, alert and report.
 */
export function formatRate(rate: number): string {
  return Number.isInteger(Math.round(rate * 1e6) / 1e4) ? formatMoney(rate) : `$${rate}`;
}

/** `$2.30 / h`: the one way an hourly price is shown. */
export function formatHourlyRate(rate: number): string {
  return `${formatRate(rate)} / h`;
}

/**
 * `$0.51 / h`, or `$0.51 / h list price (May 2024)` when the rate is Paperspace's published list price
 * rather than the account's: a person must never take a list price for what their account pays.
 */
export function formatKnownHourlyRate(rate: HourlyRate): string {
  const price = formatHourlyRate(Number(rate.dollars));
  return rate.basis === 'list-price'
    ? `${price} list price (${billingMonthName(LIST_PRICES_RECORDED)})`
    : price;
}
