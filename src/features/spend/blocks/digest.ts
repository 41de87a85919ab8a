// The team digest as posted in its channel: what is running, whose it is and for how long, each with a
// Stop button (acting with the clicker's own key), then the month's spend so far per person.

import type { KnownBlock } from '@slack/types';
import { billingMonthName } from '../../../domain/billing-month.js';
import type { Machine } from '../../../paperspace/schemas.js';
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
} from '../../../slack/block-kit/text.js';
import { ActionId } from '../../../slack/ids.js';
import { stopButton } from '../../machines/blocks/machine-card.js';
import { stateMrkdwn } from '../../machines/blocks/machine-state.js';
import type { SpendReport } from '../spend-report.js';
import { costBar, ownerLabel } from './spend.js';

export interface RunningMachine {
  machine: Machine;
  /** Mention or name of the owner, as ownerLabel() words it. */
  owner: string;
  /** When the current run began; undefined when its events do not say. */
  since: number | undefined;
}

/** Header, the running count, the spend section, its "and more" and the closing line. */
const OVERHEAD = 8;
const MAX_DIGEST_MACHINES = LIMITS.messageBlocks - OVERHEAD;

const DIGEST_BLOCK_PREFIX = 'digest:';

/** block_id of a machine's row: unique per machine, so a Stop click can mark its own row. */
export function digestBlockId(machineId: string): string {
  return DIGEST_BLOCK_PREFIX + machineId;
}

export function digestMessage(running: RunningMachine[], report: SpendReport, now: number): SlackMessage {
  const title = `📋 Team digest · ${new Date(now).toISOString().slice(0, 10)}`;
  const blocks: KnownBlock[] = [header(title)];
  blocks.push({
    type: 'section',
    text: mrkdwn(
      running.length === 0
        ? '*Nothing is running.* 🌙'
        : `*${plural(running.length, 'machine')} running* (oldest run first):`,
    ),
  });
  const shown = running.slice(0, MAX_DIGEST_MACHINES);
  for (const row of shown) blocks.push(machineRow(row, now));
  if (running.length > shown.length) {
    const rest = running.slice(shown.length).map((row) => nameMrkdwn(row.machine.name, 'plain'));
    blocks.push(
      contextLine(`…and ${rest.length} more running: ${rest.join(', ')}`.slice(0, LIMITS.sectionText)),
    );
  }
  blocks.push({ type: 'section', text: mrkdwn(spendText(report)) });
  const how =
    report.source === 'estimated'
      ? "Spend is estimated from each machine's start and stop events × its hourly rate, plus storage"
      : "Spend is Paperspace's own utilization of each machine, plus storage";
  blocks.push(
    contextLine(
      `${how}, as of ${slackDate(report.asOf, '{date_short_pretty} at {time}')}. Stop acts with your own Paperspace key.`,
    ),
  );
  const text = `${title}: ${plural(running.length, 'machine')} running, ${formatMoney(report.total)} spent in ${billingMonthName(report.month)} so far`;
  return message(blocks, escapeMrkdwn(text));
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

function spendText(report: SpendReport): string {
  const lines = [`*${billingMonthName(report.month)} so far: ${formatMoney(report.total)}*`];
  const biggest = Math.max(0, ...report.owners.map((owner) => owner.total));
  for (const owner of report.owners) {
    const bar = costBar(owner.total, biggest);
    lines.push(`${ownerLabel(owner)}  *${formatMoney(owner.total)}*${bar === '' ? '' : `  \`${bar}\``}`);
  }
  if (report.unread.length > 0) {
    lines.push(`_${plural(report.unread.length, 'machine')} could not be read and are not counted._`);
  }
  let text = '';
  for (const line of lines) {
    if (text.length + line.length + 1 > LIMITS.sectionText - 20) return `${text}\n…`;
    text = text === '' ? line : `${text}\n${line}`;
  }
  return text;
}
