// /ps spend: a billing month's cost per person and per machine, with a bar per machine drawn in text
// (Block Kit has no charts) so the biggest spender stands out, and how the figures were obtained.

import type { KnownBlock } from '@slack/types';
import { billingMonthName } from '../../../domain/billing-month.js';
import { sumOfCents } from '../../../domain/money.js';
import { button, contextLine, header, section } from '../../../slack/block-kit/elements.js';
import { formatHoursMinutes, formatMoney } from '../../../slack/block-kit/format.js';
import { rowsThatFit } from '../../../slack/block-kit/message-budget.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  nameMrkdwn,
  plural,
  type SlackMessage,
  slackDate,
  truncateMrkdwn,
} from '../../../slack/block-kit/text.js';
import { ActionId } from '../../../slack/ids.js';
import type { SpendPerson } from '../machine-attribution.js';
import type { MachineSpend, OwnerSpend, SpendReport } from '../spend-report.js';
import { encodeSpendPage } from './spend-page-value.js';

/** Characters of the longest bar: wide enough to tell $40 from $50, narrow enough for a phone. */
const BAR_WIDTH = 20;

/**
 * `▇▇▇▇▇▇` scaled to the biggest machine; a machine that cost a cent or more gets at least one, and
 * one shown as $0.00 gets none (a bar beside nothing would tell a different story than its figure).
 */
export function costBar(amount: number, biggest: number): string {
  if (biggest < 0.005 || amount < 0.005) return '';
  return '▇'.repeat(Math.max(1, Math.round((amount / biggest) * BAR_WIDTH)));
}

/** A person as people in the channel know them: their Slack mention, else their Paperspace name. */
function personLabel(person: SpendPerson): string {
  const [slackUser] = person.slackUsers;
  if (slackUser !== undefined) return `<@${slackUser.userId}>`;
  const user = person.paperspaceUser;
  if (user !== undefined) {
    const name = `${user.firstname} ${user.lastname}`.trim();
    return escapeMrkdwn(name === '' ? user.email : `${name} (${user.email})`);
  }
  return `Paperspace user ${escapeMrkdwn(person.paperspaceUserId ?? 'unknown')} (no Slack link)`;
}

/** Whose the machines are: a person, the several people who have access to them, or nobody known. */
export function ownerLabel(owner: OwnerSpend): string {
  if (owner.people.length === 0) return 'Not created through this bot';
  const names = owner.people.map(personLabel).join(', ');
  return owner.people.length === 1 ? names : `Shared by ${names}`;
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
  return sections.map((text) => section(text));
}

/**
 * One page of /ps spend. People are listed biggest spender first, as many as fit one message; the
 * rest are counted and summed on the page, and Next / Previous page through them (the pages are cut
 * the same way on every click, so each person is on exactly one page). `page` is 1-based and moved
 * into range when the team shrank since the click.
 */
export function spendMessage(report: SpendReport, notAdminBecause?: string, page = 1): SlackMessage {
  const month = billingMonthName(report.month);
  const title = report.scope === 'team' ? `Team spend · ${month}` : `Your spend · ${month}`;
  const machines = report.owners.flatMap((owner) => owner.machines);
  const biggest = Math.max(0, ...machines.map((machine) => machine.cost.total ?? 0));
  const totalLine = `*Total: ${formatMoney(report.total)}*${report.current ? ' so far' : ''} for ${plural(machines.length, 'machine')}`;
  const opening: KnownBlock[] = [header(title), section(totalLine)];
  const closing = notes(report, notAdminBecause).map((note) => contextLine(note));
  const people = report.owners.map((owner) => ownerSections(owner, biggest));
  const pages = spendPages(people, report.owners, [...opening, ...closing, ...widestPager(report)]);
  const index = Math.min(Math.max(1, Math.floor(page) || 1), pages.length) - 1;
  const { start, end } = pages[index] ?? { start: 0, end: 0 };

  const blocks: KnownBlock[] = [...opening];
  blocks.push(...people.slice(start, end).flat());
  if (machines.length === 0) {
    blocks.push(section(emptyText(report)));
  }
  if (pages.length > 1) blocks.push(pageLine(report.owners, start, end, index + 1, pages.length));
  blocks.push(...closing);
  blocks.push(...spendPager(report.month, index + 1, pages.length));
  const text = `${title}: ${formatMoney(report.total)}${report.current ? ' so far' : ''}`;
  return message(blocks, escapeMrkdwn(text));
}

interface PersonPage {
  start: number;
  end: number;
}

/** Cuts the people into pages, each as many as fit beside the fixed blocks and the page line. */
function spendPages(people: KnownBlock[][], owners: OwnerSpend[], fixed: KnownBlock[]): PersonPage[] {
  const pages: PersonPage[] = [];
  let start = 0;
  while (start < people.length) {
    const fitting = rowsThatFit(people.slice(start), [...fixed, draftPageLine(owners, start)], []);
    // A person whose machines alone pass the budget still gets a page: paging must move on.
    const end = start + Math.max(1, fitting);
    pages.push({ start, end });
    start = end;
  }
  return pages.length === 0 ? [{ start: 0, end: 0 }] : pages;
}

/**
 * Where the page stands among the people: who is shown, and what those before and after spent
 * together (in the total above), so the figures on one page still add up to the total.
 */
function pageLine(owners: OwnerSpend[], start: number, end: number, page: number, pages: number): KnownBlock {
  return pageLineOf({
    range: `${start + 1}–${end}`,
    everyone: owners.length,
    page: `${page} of ${pages}`,
    before: owners.slice(0, start),
    after: owners.slice(end),
  });
}

/**
 * The longest line a page starting at `start` can end up with, for measuring before its end is known:
 * the widest range and page numbers, and everyone from `start` on counted after it.
 */
function draftPageLine(owners: OwnerSpend[], start: number): KnownBlock {
  const widest = String(owners.length).replace(/\d/g, '9');
  return pageLineOf({
    range: `${widest}–${widest}`,
    everyone: owners.length,
    page: `${widest} of ${widest}`,
    before: owners.slice(0, start),
    after: owners.slice(start),
  });
}

function pageLineOf(line: {
  range: string;
  everyone: number;
  page: string;
  before: OwnerSpend[];
  after: OwnerSpend[];
}): KnownBlock {
  const sum = (list: OwnerSpend[]) => formatMoney(sumOfCents(list.map((owner) => owner.total)));
  const parts = [`People ${line.range} of ${line.everyone} · page ${line.page}`];
  if (line.before.length > 0) {
    parts.push(`${plural(line.before.length, 'person', 'people')} before, ${sum(line.before)} together`);
  }
  if (line.after.length > 0) {
    parts.push(
      `…and ${plural(line.after.length, 'more person', 'more people')}, ${sum(line.after)} together (in the total above): *Next ▶* shows them`,
    );
  }
  return contextLine(parts.join(' · '));
}

/** The Previous / Next buttons as wide as they get, for measuring a page before its place is known. */
function widestPager(report: SpendReport): KnownBlock[] {
  return spendPager(report.month, 2, 3);
}

/**
 * Previous / Next under a page of people. Both carry ActionId.spendPage, and Slack refuses two equal
 * action_ids in one block, so each sits in its own actions block.
 */
function spendPager(month: string, page: number, pages: number): KnownBlock[] {
  const targets: { label: string; page: number; blockId: string }[] = [];
  if (page > 1) targets.push({ label: '◀ Previous', page: page - 1, blockId: 'spend_page_prev' });
  if (page < pages) targets.push({ label: 'Next ▶', page: page + 1, blockId: 'spend_page_next' });
  return targets.map((target) => ({
    type: 'actions',
    block_id: target.blockId,
    elements: [
      button({
        actionId: ActionId.spendPage,
        text: target.label,
        value: encodeSpendPage({ month, page: target.page }),
        accessibilityLabel: `People, page ${target.page} of ${pages}`,
      }),
    ],
  }));
}

function emptyText(report: SpendReport): string {
  if (report.scope === 'own') return `No machine of yours existed in ${billingMonthName(report.month)}.`;
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
  if (report.attributedByBot) {
    lines.push(
      "Paperspace's API does not say who owns a machine, so each is under the person this bot created it for, " +
        'else the person who created it through this bot, else the people Paperspace lists as having access to it' +
        (report.scope === 'own'
          ? ': these are the ones that are yours.'
          : '; the rest were not created through this bot.'),
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
