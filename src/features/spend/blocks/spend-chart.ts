// The month's spend as a bar chart, for those who would rather look than read: per person for the
// team's spend and the digest (the machines with no owner yet as one bar of their own), per machine for
// one person's own. Paperspace reports a machine's month as one figure, with nothing by day or week,
// so the month is drawn by whose it is. The same amounts go into the message's text, which screen
// readers, notifications and clients without charts read instead.
import type { KnownBlock } from '@slack/types';
import { billingMonthName } from '../../../domain/billing-month.js';
import { sumOfCents } from '../../../domain/money.js';
import { type BarChartData, barChart, chartBlock, chartText } from '../../../slack/block-kit/bar-chart.js';
import { formatMoney } from '../../../slack/block-kit/format.js';
import type { SpendPerson } from '../machine-attribution.js';
import type { SpendReport } from '../spend-report.js';
import { NO_OWNER_YET } from './no-owner-yet.js';

export interface SpendChart {
  block: KnownBlock;
  /** The chart's amounts in words (plain text, not yet escaped for mrkdwn). */
  text: string;
}

/**
 * A person as a chart can name them: a chart's labels are plain text, so not a Slack mention, but
 * the name Paperspace lists them by, else their e-mail.
 */
function personName(person: SpendPerson | undefined): string {
  const user = person?.paperspaceUser;
  if (user === undefined) return 'Unnamed person';
  const name = `${user.firstname} ${user.lastname}`.trim();
  return name === '' ? user.email : name;
}

function byPerson(report: SpendReport): Pick<BarChartData, 'categories' | 'series' | 'others'> {
  const bars = report.owners.map((owner) => ({ label: personName(owner.people[0]), total: owner.total }));
  if (report.unowned.length > 0) {
    bars.push({
      label: NO_OWNER_YET,
      total: sumOfCents(report.unowned.map((machine) => machine.cost.total ?? 0)),
    });
  }
  return {
    categories: bars.map((bar) => bar.label),
    series: [{ name: 'Spend', values: bars.map((bar) => bar.total) }],
    others: 'Everyone else',
  };
}

function byMachine(report: SpendReport): Pick<BarChartData, 'categories' | 'series' | 'others'> {
  const machines = report.owners.flatMap((owner) => owner.machines);
  machines.sort((a, b) => (b.cost.total ?? 0) - (a.cost.total ?? 0));
  return {
    categories: machines.map((machine) => machine.name),
    series: [{ name: 'Spend', values: machines.map((machine) => machine.cost.total ?? 0) }],
    others: 'Other machines',
  };
}

/**
 * The chart of a report, biggest first (the report's order); none when nothing was spent, where a
 * row of empty bars would only take room.
 */
export function spendChart(report: SpendReport): SpendChart | undefined {
  if (report.total <= 0) return undefined;
  const team = report.scope === 'team';
  const month = `${billingMonthName(report.month)}${report.current ? ' so far' : ''}`;
  const chart = barChart({
    title: team ? `Spend by person · ${month}` : `Your spend by machine · ${month}`,
    ...(team ? byPerson(report) : byMachine(report)),
    yLabel: 'US dollars',
  });
  if (chart === undefined) return undefined;
  return { block: chartBlock(chart), text: chartText(chart, formatMoney) };
}
