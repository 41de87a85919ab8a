// /ps usage and the card's Usage button: time used in the billing month and what it costs so far.

import { billingMonthAt, billingMonthName } from '../../../domain/billing-month.js';
import { type UsageCost, usageCost } from '../../../domain/money.js';
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
    estimate === undefined || hourly === undefined || monthly === undefined
      ? 'Estimate = hours used × hourly rate + monthly storage rate (a rate could not be read, so no estimate).'
      : formulaText(cost, hourly, monthly, storageShare === 1);
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

/**
 * The sum the shown figures came from, with the numbers it used, so a person can redo it: the time the
 * bill's way but to the second (the field shows whole minutes), each part rounded to the cent as
 * shown, and the estimate their sum.
 */
function formulaText(cost: UsageCost, hourly: number, monthly: number, wholeMonth: boolean): string {
  const compute = `Compute = ${exactTime(cost.secondsUsed)} × ${formatHourlyRate(hourly)} = ${formatMoney(cost.compute ?? 0)}.`;
  const storage = wholeMonth
    ? `Storage = ${formatRate(monthly)} / month for the whole month = ${formatMoney(cost.storage ?? 0)}.`
    : `Storage = ${formatRate(monthly)} / month × ${decimals(cost.storageDays, 4)}/${cost.monthDays} days the disk existed = ${formatMoney(cost.storage ?? 0)}.`;
  const total = `Estimate = ${formatMoney(cost.compute ?? 0)} + ${formatMoney(cost.storage ?? 0)} = ${formatMoney(cost.total ?? 0)}`;
  return `${compute} ${storage} ${total} (time to the second, days to 4 decimals, each amount rounded to the cent).`;
}

/** `12 h 05 min 17 s`; `12 h 05 min` on a whole minute, as the Time used field shows it. */
function exactTime(seconds: number): string {
  const whole = Math.round(Math.max(0, seconds));
  const rest = whole % 60;
  const minutes = formatHoursMinutes(whole - rest);
  return rest === 0 ? minutes : `${minutes} ${String(rest).padStart(2, '0')} s`;
}

/** At most `places` decimals, without trailing zeros: 12.5, 1.0003, 6.2. */
function decimals(value: number, places: number): string {
  return String(Number(value.toFixed(places)));
}

const ESTIMATED_TIME =
  " Paperspace's API reports no usage, so the time used is estimated from the machine's start and stop events.";
