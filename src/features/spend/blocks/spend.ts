// /ps spend: a billing month's cost per person and per machine, with a bar per machine drawn in text
// (Block Kit has no charts) so the biggest spender stands out, and how the figures were obtained.

import type { KnownBlock } from '@slack/types';
import { billingMonthName } from '../../../domain/billing-month.js';
import { sumOfCents } from '../../../domain/money.js';
import { contextLine, header } from '../../../slack/block-kit/elements.js';
import { formatHoursMinutes, formatMoney } from '../../../slack/block-kit/format.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  mrkdwn,
  nameMrkdwn,
  plural,
  type SlackMessage,
  slackDate,
  truncateMrkdwn,
} from '../../../slack/block-kit/text.js';
import type { MachineSpend, OwnerSpend, SpendReport } from '../spend-report.js';

/** Characters of the longest bar: wide enough to tell $40 from $50, narrow enough for a phone. */
const BAR_WIDTH = 20;
/** Blocks left for people after the header and the closing lines. */
const PEOPLE_BLOCKS = LIMITS.messageBlocks - 6;

/**
 * `▇▇▇▇▇▇` scaled to the biggest machine; a machine that cost a cent or more gets at least one, and
 * one shown as $0.00 gets none (a bar beside nothing would tell a different story than its figure).
 */
export function costBar(amount: number, biggest: number): string {
  if (biggest < 0.005 || amount < 0.005) return '';
  return '▇'.repeat(Math.max(1, Math.round((amount / biggest) * BAR_WIDTH)));
}

/** The owner as people in the channel know them: their Slack mention, else their Paperspace name. */
export function ownerLabel(owner: OwnerSpend): string {
  const [slackUser] = owner.slackUsers;
  if (slackUser !== undefined) return `<@${slackUser.userId}>`;
  const user = owner.paperspaceUser;
  if (user !== undefined) {
    const name = `${user.firstname} ${user.lastname}`.trim();
    return escapeMrkdwn(name === '' ? user.email : `${name} (${user.email})`);
  }
  return owner.ownerId === undefined
    ? 'Owner not reported by Paperspace'
    : `Paperspace user ${escapeMrkdwn(owner.ownerId)} (no Slack link)`;
}

function machineLine(machine: MachineSpend, biggest: number): string {
  const { cost } = machine;
  const amount = cost.total === undefined ? 'rate unknown' : formatMoney(cost.total);
  const bar = costBar(cost.total ?? 0, biggest);
  return `${nameMrkdwn(machine.name, 'plain')}  ${formatHoursMinutes(cost.secondsUsed)} · *${amount}*${bar === '' ? '' : `\n\`${bar}\``}`;
}

/** One section per person, split where a person's machines would pass a section's 3000 characters. */
function ownerSections(owner: OwnerSpend, biggest: number): KnownBlock[] {
  const heading = `*${ownerLabel(owner)}*: *${formatMoney(owner.total)}* (${plural(owner.machines.length, 'machine')})`;
  const sections: string[] = [heading];
  for (const machine of owner.machines) {
    const line = machineLine(machine, biggest);
    const last = sections.length - 1;
    if ((sections[last] ?? '').length + line.length + 1 > LIMITS.sectionText) sections.push(line);
    else sections[last] = `${sections[last]}\n${line}`;
  }
  return sections.map((text) => ({ type: 'section', text: mrkdwn(text) }));
}

export function spendMessage(report: SpendReport, notAdminBecause?: string): SlackMessage {
  const month = billingMonthName(report.month);
  const title =
    report.scope === 'team'
      ? `Team spend · ${month}`
      : report.scope === 'own'
        ? `Your spend · ${month}`
        : `Spend · ${month}`;
  const machines = report.owners.flatMap((owner) => owner.machines);
  const biggest = Math.max(0, ...machines.map((machine) => machine.cost.total ?? 0));
  const blocks: KnownBlock[] = [header(title)];
  const totalLine = `*Total: ${formatMoney(report.total)}*${report.current ? ' so far' : ''} for ${plural(machines.length, 'machine')}`;
  blocks.push({ type: 'section', text: mrkdwn(totalLine) });

  const people: KnownBlock[] = [];
  let shownPeople = 0;
  for (const owner of report.owners) {
    const sections = ownerSections(owner, biggest);
    if (people.length + sections.length > PEOPLE_BLOCKS) break;
    people.push(...sections);
    shownPeople += 1;
  }
  if (machines.length === 0) {
    people.push({ type: 'section', text: mrkdwn(emptyText(report)) });
  }
  blocks.push(...people);
  if (shownPeople < report.owners.length) {
    const rest = report.owners.slice(shownPeople);
    const restTotal = sumOfCents(rest.map((owner) => owner.total));
    blocks.push(
      contextLine(
        `…and ${plural(rest.length, 'more person', 'more people')}, ${formatMoney(restTotal)} together (in the total above).`,
      ),
    );
  }
  for (const note of notes(report, notAdminBecause)) blocks.push(contextLine(note));
  const text = `${title}: ${formatMoney(report.total)}${report.current ? ' so far' : ''}`;
  return message(blocks, escapeMrkdwn(text));
}

function emptyText(report: SpendReport): string {
  if (report.scope === 'own') return `You own no machine that existed in ${billingMonthName(report.month)}.`;
  return `No machine existed in ${billingMonthName(report.month)}.`;
}

/** How the figures were obtained, and everything they leave out. */
function notes(report: SpendReport, notAdminBecause: string | undefined): string[] {
  const how =
    report.source === 'estimated'
      ? "How: Paperspace's API reports no usage, so hours are estimated from each machine's start and stop events × its hourly rate, plus its storage rate for the days its disk existed."
      : "How: Paperspace's own utilization for each machine (hours used × hourly rate, plus the storage rate for the days its disk existed).";
  const when = report.current
    ? `To date as of ${slackDate(report.asOf, '{date_short_pretty} at {time}')}; refreshed at most every 5 minutes.`
    : `Billing month ${escapeMrkdwn(report.month)} (UTC).`;
  const lines = [`${how} ${when} Upgrades and machines destroyed since are not included.`];
  if (report.owners.some((owner) => owner.createdThroughBot)) {
    lines.push(
      "Paperspace's API does not say who owns a machine: machines created through this bot are listed under the person who created them.",
    );
  }
  if (report.scope === 'visible') {
    lines.push(
      "Paperspace's API does not say who owns a machine, so these are all the machines your key can see.",
    );
  }
  if (notAdminBecause !== undefined) {
    lines.push(`Only team administrators see the whole team's spend, and ${escapeMrkdwn(notAdminBecause)}.`);
  }
  if (report.unpriced.length > 0) {
    const names = report.unpriced.map((machine) => nameMrkdwn(machine.name, 'plain')).join(', ');
    lines.push(`Not in the total: Paperspace sent a rate that is not a number for ${names}.`);
  }
  if (report.unread.length > 0) {
    const names = report.unread
      .map((machine) => `${nameMrkdwn(machine.name, 'plain')} (${escapeMrkdwn(machine.problem)})`)
      .join('; ');
    lines.push(`Not in the total: ${plural(report.unread.length, 'machine')} could not be read: ${names}`);
  }
  return lines.map((line) => truncateMrkdwn(line, LIMITS.sectionText));
}
