// /ps usage and the card's Usage button: time used in the billing month and what it costs so far.
import type { MachineUtilization } from '../../../paperspace/schemas.js';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import { formatHoursMinutes, formatMoney, MISSING } from '../../../slack/block-kit/format.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  mrkdwn,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { usageCost } from '../../spend/running-cost.js';

/**
 * `now` (epoch milliseconds) tells whether the billing month is still running, in which case the
 * figures are "to date".
 */
export function usageMessage(
  machineName: string,
  utilization: MachineUtilization,
  now: number,
  /** The time used was rebuilt from start/stop events (v1 has no meter), not read from Paperspace's. */
  timeEstimated = false,
): SlackMessage {
  const { secondsUsed, billingMonth, hourlyRate } = utilization.utilization;
  const monthlyRate = utilization.storageUtilization.monthlyRate;
  const cost = usageCost(utilization);
  const { hours, storageDays, monthDays } = cost;
  const hourly = cost.hourlyRate;
  const monthly = cost.monthlyStorageRate;
  const storageShare = monthDays > 0 ? storageDays / monthDays : 1;
  // Rounded to cents only when shown, so the total is the exact sum rounded, not a sum of rounded parts.
  const estimate = cost.total;
  const month = monthLabel(billingMonth);
  const current = billingMonth === new Date(now).toISOString().slice(0, 7);

  const fields: [string, string][] = [
    [timeEstimated ? 'Time used (estimated)' : 'Time used', formatHoursMinutes(secondsUsed)],
    ['Hourly rate', hourly === undefined ? escapeMrkdwn(hourlyRate) || MISSING : `${formatRate(hourly)} / h`],
    ['Compute', cost.compute === undefined ? MISSING : formatMoney(cost.compute)],
    [
      'Storage',
      monthly === undefined ? escapeMrkdwn(monthlyRate) || MISSING : `${formatRate(monthly)} / month`,
    ],
    [
      current ? 'Estimated cost so far' : 'Estimated cost',
      estimate === undefined ? MISSING : formatMoney(estimate),
    ],
  ];
  const formula =
    estimate === undefined
      ? 'Estimate = hours used × hourly rate + monthly storage rate (a rate could not be read, so no estimate).'
      : storageShare === 1
        ? `Estimate = hours used × hourly rate + monthly storage rate = ${hours.toFixed(2)} h × ${formatRate(hourly ?? 0)} + ${formatRate(monthly ?? 0)}.`
        : `Estimate = hours used × hourly rate + monthly storage rate × days the disk existed = ${hours.toFixed(2)} h × ${formatRate(hourly ?? 0)} + ${formatRate(monthly ?? 0)} × ${storageDays.toFixed(1)}/${monthDays} days.`;
  const status = current
    ? `Billing month ${escapeMrkdwn(billingMonth)}, to date as of ${slackDate(now, '{date_short_pretty} at {time}')}.`
    : `Billing month ${escapeMrkdwn(billingMonth)}.`;
  const title = `Usage of ${machineName} · ${month}`;
  const text = `${escapeMrkdwn(machineName)} in ${escapeMrkdwn(month)}: ${formatHoursMinutes(secondsUsed)}, estimated ${estimate === undefined ? 'cost unknown' : formatMoney(estimate)}`;
  return message(
    [
      header(title),
      {
        type: 'section',
        fields: fields.map(([label, value]) => mrkdwn(`*${label}*\n${value}`, LIMITS.sectionField)),
      },
      contextLine(
        `${formula} Machine upgrades are not included.${timeEstimated ? ESTIMATED_TIME : ''} ${status}`,
      ),
    ],
    text,
  );
}

const ESTIMATED_TIME =
  " Paperspace's API reports no usage, so the time used is estimated from the machine's start and stop events.";

// Made once: toLocaleString builds a new formatter on every call, the costliest step of a Usage card
// (profiled under a burst of Usage clicks, nine tenths of the CPU the card itself took).
const MONTH_FORMAT = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** `May 2024` for `2024-05`; anything else is shown as sent. */
function monthLabel(billingMonth: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(billingMonth);
  if (!match) return billingMonth;
  return MONTH_FORMAT.format(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)));
}

/** Rates keep their precision (`$0.0045`) where money totals round to cents. */
function formatRate(rate: number): string {
  return Number.isInteger(Math.round(rate * 1e6) / 1e4) ? formatMoney(rate) : `$${rate}`;
}
