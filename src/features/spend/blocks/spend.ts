// /ps spend: a billing month's cost per owner and per machine, with a chart of the month (spend-chart.ts)
// and a bar per machine drawn in text so the biggest spender stands out, and how the figures were obtained. The
// machines with no owner yet are listed one a row with the button that gives each an owner: Assign
// for an administrator (the team report), This is mine for a member (their own report).

import type { Button, KnownBlock } from '@slack/types';
import { billingMonthName } from '../../../domain/billing-month.js';
import { sumOfCents } from '../../../domain/money.js';
import { button, contextLine, header, section } from '../../../slack/block-kit/elements.js';
import { formatHoursMinutes, formatMoney } from '../../../slack/block-kit/format.js';
import { MESSAGE_BUDGET, rowsThatFit } from '../../../slack/block-kit/message-budget.js';
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
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import { claimButton } from '../../machines/blocks/machine-card.js';
import { encodeMachineRef } from '../../machines/blocks/machine-ref.js';
import type { SpendPerson } from '../machine-attribution.js';
import type { MachineSpend, OwnerSpend, SpendReport } from '../spend-report.js';
import { NO_OWNER_YET } from './no-owner-yet.js';
import { spendChart } from './spend-chart.js';
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

/** Whose the machines are: their owner as people in the channel know them. */
export function ownerLabel(owner: Pick<OwnerSpend, 'people'>): string {
  const [person] = owner.people;
  return person === undefined ? NO_OWNER_YET : personLabel(person);
}

function machineLine(machine: MachineSpend, biggest: number): string {
  const { cost } = machine;
  const amount = cost.total === undefined ? 'rate unknown' : formatMoney(cost.total);
  const bar = costBar(cost.total ?? 0, biggest);
  return `${nameMrkdwn(machine.name, 'plain')}  ${formatHoursMinutes(cost.secondsUsed)} · *${amount}*${bar === '' ? '' : `\n\`${bar}\``}`;
}

/**
 * Text of one part of a person's machines: a person whose machines fit one section is one part, as
 * ever; one with more is cut into parts of half a section, so a page packs several beside its other
 * blocks and one person's machines run on over as many pages as they need.
 */
const OWNER_PART_TEXT = LIMITS.sectionText / 2;

/** A line of the report as it is paged: a part of one owner's machines, or some of those with no owner yet. */
type ReportLine =
  | { kind: 'owner'; owner: OwnerSpend; text: string; machines: MachineSpend[]; part: number; parts: number }
  | { kind: 'unowned'; machines: MachineSpend[]; first: boolean };

function ownerHeading(owner: OwnerSpend): string {
  return `*${ownerLabel(owner)}*: *${formatMoney(owner.total)}* (${plural(owner.machines.length, 'machine')})`;
}

/** The owner's machines cut into parts (one when they fit a section), each with its heading. */
function ownerLines(owner: OwnerSpend, biggest: number): ReportLine[] {
  const heading = ownerHeading(owner);
  const machineLines = owner.machines.map((machine) => machineLine(machine, biggest));
  const whole = [heading, ...machineLines].join('\n');
  if (whole.length <= LIMITS.sectionText) {
    return [{ kind: 'owner', owner, text: whole, machines: owner.machines, part: 1, parts: 1 }];
  }
  const continued = `*${ownerLabel(owner)}* (continued)`;
  const parts: { lines: string[]; machines: MachineSpend[] }[] = [];
  let length = 0;
  for (const [index, line] of machineLines.entries()) {
    const machine = owner.machines[index] as MachineSpend;
    const current = parts.at(-1);
    if (current !== undefined && length + line.length + 1 <= OWNER_PART_TEXT) {
      current.lines.push(line);
      current.machines.push(machine);
      length += line.length + 1;
    } else {
      parts.push({ lines: [line], machines: [machine] });
      length = (parts.length === 1 ? heading : continued).length + line.length + 1;
    }
  }
  return parts.map((part, index) => ({
    kind: 'owner',
    owner,
    text: [index === 0 ? heading : continued, ...part.lines].join('\n'),
    machines: part.machines,
    part: index + 1,
    parts: parts.length,
  }));
}

/**
 * Machines with no owner yet a line of the report holds at most: each is a block with its button (and
 * its confirm dialog), so a team with many is paged like its people rather than overflowing a message.
 */
const UNOWNED_PER_LINE = 8;

function reportLines(report: SpendReport, biggest: number): ReportLine[] {
  const lines: ReportLine[] = report.owners.flatMap((owner) => ownerLines(owner, biggest));
  for (let at = 0; at < report.unowned.length; at += UNOWNED_PER_LINE) {
    lines.push({
      kind: 'unowned',
      machines: report.unowned.slice(at, at + UNOWNED_PER_LINE),
      first: at === 0,
    });
  }
  return lines;
}

/** What a line adds to the report's total: a member's total leaves out the machines nobody owns. */
function lineTotal(line: ReportLine, report: SpendReport): number {
  if (line.kind === 'owner')
    return line.parts === 1 ? line.owner.total : sumOfCents(line.machines.map((m) => m.cost.total ?? 0));
  return report.scope === 'team' ? sumOfCents(line.machines.map((machine) => machine.cost.total ?? 0)) : 0;
}

/** The machines with no owner yet: a heading, then a row per machine with its button. */
function unownedSections(
  line: Extract<ReportLine, { kind: 'unowned' }>,
  report: SpendReport,
  biggest: number,
): KnownBlock[] {
  const team = report.scope === 'team';
  const all = report.unowned;
  const heading = !line.first
    ? `*${NO_OWNER_YET}* (continued)`
    : team
      ? `*${NO_OWNER_YET}*: *${formatMoney(sumOfCents(all.map((machine) => machine.cost.total ?? 0)))}* (${plural(all.length, 'machine')}): the team's administrators answer for them until each is assigned to its owner.`
      : `*${NO_OWNER_YET}*: ${plural(all.length, 'team machine')}, not in your total. If one is yours, *This is mine* makes it yours: its cost then counts in your spend.`;
  return [
    section(heading),
    ...line.machines.map(
      (machine): KnownBlock => ({
        ...section(machineLine(machine, biggest)),
        accessory: team ? assignButton(machine) : claimButton(machine),
      }),
    ),
  ];
}

/** Assign, on a row with no owner yet: opens the same form as the card's "Assign to…". */
function assignButton(machine: Pick<MachineSpend, 'id' | 'name'>): Button {
  return button({
    actionId: ActionId.spendAssign,
    text: 'Assign',
    value: encodeMachineRef(machine),
    accessibilityLabel: `Assign ${machine.name} to a teammate`,
  });
}

function lineSections(line: ReportLine, report: SpendReport, biggest: number): KnownBlock[] {
  return line.kind === 'owner' ? [section(line.text)] : unownedSections(line, report, biggest);
}

/**
 * One page of /ps spend. People are listed biggest spender first, then the machines with no owner yet,
 * as many as fit one message; the rest are counted and summed on the page, and Next / Previous page
 * through them (the pages are cut the same way on every click, so each line is on exactly one page).
 * `page` is 1-based and moved into range when the team shrank since the click.
 */
export function spendMessage(report: SpendReport, notAdminBecause?: string, page = 1): SlackMessage {
  const month = billingMonthName(report.month);
  const title = report.scope === 'team' ? `Team spend · ${month}` : `Your spend · ${month}`;
  const machines = report.owners.flatMap((owner) => owner.machines);
  const counted = report.scope === 'team' ? [...machines, ...report.unowned] : machines;
  const biggest = Math.max(0, ...[...machines, ...report.unowned].map((machine) => machine.cost.total ?? 0));
  const totalLine = `*Total: ${formatMoney(report.total)}*${report.current ? ' so far' : ''} for ${plural(counted.length, 'machine')}`;
  const chart = spendChart(report);
  const opening: KnownBlock[] = [header(title), section(totalLine), ...(chart ? [chart.block] : [])];
  const closing = notes(report, notAdminBecause).map((note) => contextLine(note));
  const lines = reportLines(report, biggest);
  const drawn = lines.map((line) => lineSections(line, report, biggest));
  const pager = new PageLines(lines, report);
  const pages = spendPages(drawn, pager, [...opening, ...closing, ...widestPager(report)]);
  const index = Math.min(Math.max(1, Math.floor(page) || 1), pages.length) - 1;
  const { start, end } = pages[index] ?? { start: 0, end: 0 };

  const blocks: KnownBlock[] = [...opening];
  if (machines.length === 0 && (report.scope === 'own' || report.unowned.length === 0)) {
    blocks.push(section(emptyText(report)));
  }
  blocks.push(...drawn.slice(start, end).flat());
  if (pages.length > 1) blocks.push(pager.line(start, end, index + 1, pages.length));
  blocks.push(...closing);
  blocks.push(...spendPager(report.month, index + 1, pages.length));
  const text = `${title}: ${formatMoney(report.total)}${report.current ? ' so far' : ''}${chart ? `. ${chart.text}` : ''}`;
  return message(blocks, escapeMrkdwn(text));
}

interface LinePage {
  start: number;
  end: number;
}

/** Cuts the lines into pages, each as many as fit beside the fixed blocks and the page line. */
function spendPages(drawn: KnownBlock[][], pager: PageLines, fixed: KnownBlock[]): LinePage[] {
  const pages: LinePage[] = [];
  let start = 0;
  while (start < drawn.length) {
    // Every line is a block at least, so no more than a message's blocks can be on one page: a person
    // with 5,000 machines is measured a page at a time, not every page's lines again for each page.
    const candidates = drawn.slice(start, start + MESSAGE_BUDGET.blocks);
    const fitting = rowsThatFit(candidates, [...fixed, pager.draft(start)], []);
    // A line whose machines alone pass the budget still gets a page: paging must move on.
    const end = start + Math.max(1, fitting);
    pages.push({ start, end });
    start = end;
  }
  return pages.length === 0 ? [{ start: 0, end: 0 }] : pages;
}

/**
 * Where a page stands among the lines: which people are shown, and what those before and after spent
 * together (in the total above), so the figures on one page still add up to the total. A person whose
 * machines run over several pages is counted by their machines where only some of them are meant.
 */
class PageLines {
  private readonly people: number;
  /** The person (1-based) each line is of, or of the last person before it; 0 before the first. */
  private readonly personAt: number[];
  /** Whole cents of the lines before each index (sumOfCents's rounding), so any run of lines sums at once. */
  private readonly centsBefore: number[];

  constructor(
    private readonly lines: ReportLine[],
    report: SpendReport,
  ) {
    let person = 0;
    this.personAt = lines.map((line) => {
      if (line.kind === 'owner' && line.part === 1) person += 1;
      return person;
    });
    this.people = person;
    let cents = 0;
    this.centsBefore = [0];
    for (const line of lines) {
      cents += Math.round(lineTotal(line, report) * 100);
      this.centsBefore.push(cents);
    }
  }

  line(start: number, end: number, page: number, pages: number): KnownBlock {
    const shown = this.lines.slice(start, end).some((line) => line.kind === 'owner');
    const first = this.personAt[start] ?? 0;
    const last = this.personAt[end - 1] ?? 0;
    const range = !shown
      ? NO_OWNER_YET
      : first === last
        ? `Person ${first} of ${this.people}`
        : `People ${first}–${last} of ${this.people}`;
    return this.lineOf(range, `${page} of ${pages}`, start, end);
  }

  /**
   * The longest line a page starting at `start` can end up with, for measuring before its end is
   * known: the widest range and page numbers, and every line from `start` on counted after it.
   */
  draft(start: number): KnownBlock {
    const widest = String(Math.max(this.people, this.lines.length)).replace(/\d/g, '9');
    return this.lineOf(`People ${widest}–${widest} of ${widest}`, `${widest} of ${widest}`, start, start);
  }

  private lineOf(range: string, page: string, start: number, end: number): KnownBlock {
    const parts = [`${range} · page ${page}`];
    const before = this.lines.slice(0, start);
    const after = this.lines.slice(end);
    if (before.length > 0) parts.push(`${this.counted(before)} before, ${this.sum(0, start)} together`);
    if (after.length > 0) {
      parts.push(
        `…and ${this.counted(after, 'more ')}, ${this.sum(end, this.lines.length)} together (in the total above): *Next ▶* shows them`,
      );
    }
    return contextLine(parts.join(' · '));
  }

  /**
   * "3 people", "3 more people and machines with no owner yet", "82 more machines" (of a person whose
   * other machines are on this page), "machines with no owner yet".
   */
  private counted(lines: ReportLine[], more = ''): string {
    const partsIn = new Map<OwnerSpend, { parts: number; of: number; machines: number }>();
    for (const line of lines) {
      if (line.kind !== 'owner') continue;
      const counted = partsIn.get(line.owner) ?? { parts: 0, of: line.parts, machines: 0 };
      counted.parts += 1;
      counted.machines += line.machines.length;
      partsIn.set(line.owner, counted);
    }
    const whole = [...partsIn.values()].filter((owner) => owner.parts === owner.of);
    const machines = [...partsIn.values()]
      .filter((owner) => owner.parts < owner.of)
      .reduce((sum, owner) => sum + owner.machines, 0);
    const unowned = lines.some((line) => line.kind === 'unowned') ? 'machines with no owner yet' : '';
    const named = whole.length === 0 ? '' : plural(whole.length, `${more}person`, `${more}people`);
    const ofPerson = machines === 0 ? '' : plural(machines, `${more}machine`);
    return [named, ofPerson, unowned].filter((part) => part !== '').join(' and ');
  }

  /** What the lines from `from` up to `to` spent together. */
  private sum(from: number, to: number): string {
    return formatMoney(((this.centsBefore[to] ?? 0) - (this.centsBefore[from] ?? 0)) / 100);
  }
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
      "Paperspace's API does not say who owns a machine, so each is under the person this bot created it for " +
        'or who created it through this bot, else the person who claimed it or an administrator assigned it to' +
        (report.scope === 'own'
          ? ': these are the ones that are yours.'
          : `; the rest have no owner yet (\`${SLASH_COMMAND} assign <machine> @person\` also gives one an owner).`),
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
