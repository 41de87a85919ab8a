// /ps usage and the card's Usage button: time used in the billing month and what it costs so far.

import { billingMonthAt, billingMonthName } from '../../../domain/billing-month.js';
import { usageCost } from '../../../domain/money.js';
import type { MachineUtilization } from '../../../paperspace/schemas.js';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import {
  formatHourlyRate,
  formatHoursMinutes,
  formatMoney,
  formatRate,
  MISSING,
} from '../../../slack/block-kit/format.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  mrkdwn,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';

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
  const { storageDays, monthDays } = cost;
  const hourly = cost.hourlyRate;
  const monthly = cost.monthlyStorageRate;
  const storageShare = monthDays > 0 ? storageDays / monthDays : 1;
  const estimate = cost.total;
  const month = billingMonthName(billingMonth);
  const current = billingMonth === billingMonthAt(now);

  const fields: [string, string][] = [
    [timeEstimated ? 'Time used (estimated)' : 'Time used', formatHoursMinutes(secondsUsed)],
    ['Hourly rate', hourly === undefined ? escapeMrkdwn(hourlyRate) || MISSING : formatHourlyRate(hourly)],
    ['Compute', cost.compute === undefined ? MISSING : formatMoney(cost.compute)],
    [
      'Storage',
      // The amount, so that Compute + Storage is the estimate as shown; the rate beside it.
      monthly === undefined || cost.storage === undefined
        ? escapeMrkdwn(monthlyRate) || MISSING
        : `${formatMoney(cost.storage)} (${formatRate(monthly)} / month)`,
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
        ? `Estimate = hours used × hourly rate + monthly storage rate = ${formatHoursMinutes(secondsUsed)} × ${formatHourlyRate(hourly ?? 0)} + ${formatRate(monthly ?? 0)}.`
        : `Estimate = hours used × hourly rate + monthly storage rate × days the disk existed = ${formatHoursMinutes(secondsUsed)} × ${formatHourlyRate(hourly ?? 0)} + ${formatRate(monthly ?? 0)} × ${storageDays.toFixed(1)}/${monthDays} days.`;
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
