// The team digest as posted in its channel: what is running, whose it is and for how long, each with a
// Stop button (acting with the clicker's own key), then the month's spend so far per person. A large
// team's digest lists the top spenders and the longest runs that fit the message budget, and says how
// many it left out and where to see them, so it always reaches the channel. A chart of the month per
// person (spend-chart.ts) follows the spend, its amounts also in the message's text.

import type { KnownBlock } from '@slack/types';
import { billingMonthName } from '../../../domain/billing-month.js';
import { sumOfCents } from '../../../domain/money.js';
import type { Machine } from '../../../paperspace/schemas.js';
import { contextLine, header, section } from '../../../slack/block-kit/elements.js';
import { formatHoursMinutes, formatMoney } from '../../../slack/block-kit/format.js';
import { linesThatFit, rowsThatFit } from '../../../slack/block-kit/message-budget.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  mrkdwn,
  nameMrkdwn,
  plural,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import { stopButton } from '../../machines/blocks/machine-card.js';
import { stateMrkdwn } from '../../machines/blocks/machine-state.js';
import type { OwnerSpend, SpendReport } from '../spend-report.js';
import { costBar, ownerLabel } from './spend.js';
import { spendChart } from './spend-chart.js';

export interface RunningMachine {
  machine: Machine;
  /** Mention or name of the owner, as ownerLabel() words it. */
  owner: string;
  /** When the current run began; undefined when its events do not say. */
  since: number | undefined;
}

/**
 * The spend section lists this many people at most, biggest first: the ones a channel acts on. Spent
 * text there is text the running machines, which can be stopped from the digest, cannot use.
 */
const TOP_SPENDERS = 10;

const DIGEST_BLOCK_PREFIX = 'digest:';

/** block_id of a machine's row: unique per machine, so a Stop click can mark its own row. */
export function digestBlockId(machineId: string): string {
  return DIGEST_BLOCK_PREFIX + machineId;
}

const STOPPED_ROW_PREFIX = 'digest_off:';

/** block_id of a row whose machine was stopped from the digest: it no longer counts as running. */
export function digestStoppedBlockId(machineId: string): string {
  return STOPPED_ROW_PREFIX + machineId;
}

/** The "N machines running" line carries N in its block_id, so a row's Stop can count it down. */
const RUNNING_COUNT_PREFIX = 'digest_running:';

function runningLine(count: number): string {
  return count === 0
    ? '*Nothing is running.* 🌙'
    : `*${plural(count, 'machine')} running* (oldest run first):`;
}

/**
 * The digest with its "N machines running" line recounted: the machines running when it was posted
 * less the rows stopped from it since (a failed stop's row counts again). Undefined for a digest
 * posted before the count was kept in the line.
 */
export function withDigestRunningCount(blocks: KnownBlock[]): KnownBlock[] | undefined {
  const counted = blocks.find((block) => block.block_id?.startsWith(RUNNING_COUNT_PREFIX));
  const posted = Number(counted?.block_id?.slice(RUNNING_COUNT_PREFIX.length));
  if (counted === undefined || !Number.isInteger(posted)) return undefined;
  const stopped = blocks.filter((block) => block.block_id?.startsWith(STOPPED_ROW_PREFIX)).length;
  const line = { ...counted, text: mrkdwn(runningLine(Math.max(0, posted - stopped))) } as KnownBlock;
  return blocks.map((block) => (block === counted ? line : block));
}

export function digestMessage(
  running: RunningMachine[],
  report: SpendReport,
  now: number,
  /** The team's budgets section (budget-lines.ts); undefined when it has none. */
  budgets?: string,
): SlackMessage {
  const title = `📋 Team digest · ${new Date(now).toISOString().slice(0, 10)}`;
  const head: KnownBlock[] = [
    header(title),
    {
      type: 'section',
      block_id: RUNNING_COUNT_PREFIX + running.length,
      text: mrkdwn(runningLine(running.length)),
    },
  ];
  const how =
    report.source === 'estimated'
      ? "Spend is estimated from each machine's start and stop events × its hourly rate, plus storage"
      : "Spend is Paperspace's own utilization of each machine, plus storage";
  const chart = spendChart(report);
  const tail: KnownBlock[] = [
    section(spendText(report)),
    ...(chart ? [chart.block] : []),
    ...(budgets === undefined ? [] : [section(budgets)]),
    contextLine(
      `${how}, as of ${slackDate(report.asOf, '{date_short_pretty} at {time}')}. Stop acts with your own Paperspace key.`,
    ),
  ];
  const rows = running.map((row) => [machineRow(row, now)]);
  const shown = rowsThatFit(rows, [...head, ...tail], [moreRunning(running)]);
  const blocks = [...head, ...rows.slice(0, shown).flat()];
  if (shown < running.length) blocks.push(moreRunning(running.slice(shown)));
  blocks.push(...tail);
  const text = `${title}: ${plural(running.length, 'machine')} running, ${formatMoney(report.total)} spent in ${billingMonthName(report.month)} so far${chart ? `. ${chart.text}` : ''}`;
  return message(blocks, escapeMrkdwn(text));
}

/** Characters of names the "and N more" line holds: enough to recognise one's own machine. */
const MORE_NAMES = 1000;

/** The machines the digest had no room for: how many, their names as far as they fit, where to act. */
function moreRunning(rest: RunningMachine[]): KnownBlock {
  const names: string[] = [];
  let length = 0;
  for (const { machine } of rest) {
    const name = nameMrkdwn(machine.name, 'plain');
    if (length + name.length > MORE_NAMES) break;
    names.push(name);
    length += name.length + 2;
  }
  const others = rest.length - names.length;
  const listed = `${names.join(', ')}${others > 0 ? `${names.length > 0 ? ' and ' : ''}${plural(others, 'other')}` : ''}`;
  return contextLine(
    `…and ${rest.length} more running: ${listed}. \`${SLASH_COMMAND} list state=ready\` shows them with their Stop buttons.`,
  );
}

function machineRow({ machine, owner, since }: RunningMachine, now: number): KnownBlock {
  const runningFor =
    since === undefined
      ? 'running since before its oldest event'
      : `for ${formatHoursMinutes((now - since) / 1000)}`;
  return {
    type: 'section',
    block_id: digestBlockId(machine.id),
    text: mrkdwn(
      [
        nameMrkdwn(machine.name),
        stateMrkdwn(machine.state),
        escapeMrkdwn(machine.machineType),
        owner,
        runningFor,
      ].join(' · '),
    ),
    accessory: stopButton(machine, ActionId.digestStop),
  };
}

/** The team's machines with no owner yet, as one line of the spend beside the people's. */
function unownedLine(report: SpendReport): OwnerSpend[] {
  if (report.unowned.length === 0) return [];
  const total = sumOfCents(report.unowned.map((machine) => machine.cost.total ?? 0));
  return [{ people: [], machines: report.unowned, total }];
}

function spendText(report: SpendReport): string {
  const heading = `*${billingMonthName(report.month)} so far: ${formatMoney(report.total)}*`;
  const owners = [...report.owners, ...unownedLine(report)];
  const biggest = Math.max(0, ...owners.map((owner) => owner.total));
  const lines = owners.map((owner) => {
    const bar = costBar(owner.total, biggest);
    return `${ownerLabel(owner)}  *${formatMoney(owner.total)}*${bar === '' ? '' : `  \`${bar}\``}`;
  });
  const unread =
    report.unread.length > 0
      ? `\n_${plural(report.unread.length, 'machine')} could not be read and are not counted._`
      : '';
  const more = (leftOut: number) => {
    const rest = owners.slice(owners.length - leftOut);
    const people = rest.filter((owner) => owner.people.length > 0).length;
    const who = [
      ...(people > 0 ? [plural(people, 'more person', 'more people')] : []),
      ...(people < rest.length ? ['the machines with no owner yet'] : []),
    ].join(' and ');
    return `…and ${who}, ${formatMoney(sumOfCents(rest.map((owner) => owner.total)))} together: \`${SLASH_COMMAND} spend\` shows an administrator the team's and anyone else their own.`;
  };
  // The top spenders, as many of them as fit the section beside its heading and note.
  const room = LIMITS.sectionText - heading.length - unread.length - 1;
  const listed = linesThatFit(lines, more, room, TOP_SPENDERS);
  return `${heading}${listed === '' ? '' : `\n${listed}`}${unread}`;
}
