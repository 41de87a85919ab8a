// The direct message about machines left running past their owner's threshold: for each, its name,
// since when it runs and what it has cost so far at its rate, with Stop, Keep running and Not this
// machine; with several, Stop all (as a reminder has). A click replaces the row's buttons with a line
// saying what was done, and a stop made elsewhere does the same (alert-rows.ts), so the message tells
// the whole story. More alerts than one message holds go in several.
import type { Button, KnownBlock } from '@slack/types';
import { costAtRate, roundToCents } from '../../../domain/money.js';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { formatHourlyRate, formatHoursMinutes, formatMoney } from '../../../slack/block-kit/format.js';
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
import { encodeMachineRef } from '../../machines/blocks/machine-ref.js';
import { formatThreshold } from '../thresholds.js';

export interface CostAlert {
  machine: Pick<Machine, 'id' | 'name' | 'machineType'>;
  runningSince: number;
  /** True when no event said when it started: runningSince is when the bot first saw it running. */
  sinceEstimated: boolean;
  now: number;
  /** Dollars per hour as text ("0.51"), or null when Paperspace did not say. */
  hourlyRate: string | null;
  /** The reader's own threshold. */
  thresholdMs: number;
  /**
   * The threshold that made it due: the reader's own, or a shorter one of another person alerted about
   * the same machine (the team's administrators, for a machine nobody owns), whose limit passed first.
   */
  dueAfterMs: number;
}

const ALERT_BLOCK_PREFIX = 'cost_alert:';
/** block_id of the Stop all line, replaced by what Stop all did. */
export const ALERT_STOP_ALL_BLOCK_ID = 'cost_alert_stop_all';

/**
 * Rows in one message: two blocks each, with the Stop all line and the footer, well under Slack's 50
 * blocks and its summed text.
 */
export const ALERTS_PER_MESSAGE = 20;

export function costAlertBlockId(machineId: string): string {
  return ALERT_BLOCK_PREFIX + machineId;
}

/** Dollars so far at the hourly rate, or undefined when the rate is not known. */
function costSoFar(hourlyRate: string | null, runningMs: number): { cost: string; rate: string } | undefined {
  const rate = hourlyRate === null || hourlyRate.trim() === '' ? Number.NaN : Number(hourlyRate);
  if (!Number.isFinite(rate)) return undefined;
  return {
    cost: formatMoney(roundToCents(costAtRate(rate, runningMs / 1000))),
    rate: formatHourlyRate(rate),
  };
}

function alertRow(alert: CostAlert): KnownBlock[] {
  const { machine } = alert;
  const runningMs = alert.now - alert.runningSince;
  const since = slackDate(alert.runningSince, '{date_short_pretty} {time}');
  const sinceLine = alert.sinceEstimated
    ? `at least since ${since} (when I first saw it running; Paperspace's events did not say when it started)`
    : `since ${since}`;
  const cost = costSoFar(alert.hourlyRate, runningMs);
  const costLine =
    cost === undefined
      ? 'Cost so far: not known (Paperspace did not give its hourly rate)'
      : `Cost so far: about *${cost.cost}* at ${cost.rate}${alert.sinceEstimated ? ', at least' : ''}`;
  const title = `⏰ ${nameMrkdwn(machine.name)} has been running for ${formatHoursMinutes(runningMs / 1000)}, ${sinceLine}.`;
  return [
    section(`${title}\n${costLine}`),
    {
      type: 'actions',
      block_id: costAlertBlockId(machine.id),
      elements: [
        stopButton(machine, ActionId.costAlertStop),
        button({
          actionId: ActionId.costAlertKeep,
          text: 'Keep running',
          value: encodeMachineRef(machine),
          accessibilityLabel: `Keep ${machine.name} running`,
        }),
        button({
          actionId: ActionId.costAlertNever,
          text: 'Not this machine',
          value: encodeMachineRef(machine),
          accessibilityLabel: `Never alert about ${machine.name}`,
        }),
      ],
    },
  ];
}

/** Stop all for the machines of one message; undefined when their ids do not fit a button's value. */
function stopAllLine(machines: readonly CostAlert['machine'][]): KnownBlock | undefined {
  const value = machines.map((machine) => machine.id).join(',');
  if (value.length > LIMITS.buttonValue) return undefined;
  const count = plural(machines.length, 'machine');
  const stopAll: Button = button({
    actionId: ActionId.costAlertStopAll,
    text: `Stop all ${machines.length}`,
    value,
    style: 'danger',
    accessibilityLabel: `Stop all ${count} of this alert`,
    confirm: {
      title: `Stop all ${count}?`,
      text: `This stops all ${count} this alert is about, with your Paperspace key.`,
      confirm: `Stop ${machines.length}`,
      danger: true,
    },
  });
  return {
    type: 'section',
    block_id: ALERT_STOP_ALL_BLOCK_ID,
    text: mrkdwn(`Stop all stops the ${count} above.`),
    accessory: stopAll,
  };
}

function plainLine(alert: CostAlert): string {
  const runningMs = alert.now - alert.runningSince;
  const cost = costSoFar(alert.hourlyRate, runningMs);
  return `${escapeMrkdwn(alert.machine.name)} has been running for ${formatHoursMinutes(runningMs / 1000)}${cost === undefined ? '' : `, about ${cost.cost} so far`}`;
}

function oneMessage(alerts: readonly CostAlert[]): SlackMessage {
  const [first] = alerts;
  const blocks: KnownBlock[] = alerts.flatMap(alertRow);
  const stopAll = alerts.length > 1 ? stopAllLine(alerts.map((alert) => alert.machine)) : undefined;
  if (stopAll !== undefined) blocks.push(stopAll);
  blocks.push(contextLine(thresholdLine(alerts)));
  // Every machine here has run at least the shortest limit that made one of them due: "past" it is true.
  const pastMs = Math.min(...alerts.map((alert) => alert.dueAfterMs));
  const plain =
    alerts.length === 1 && first !== undefined
      ? plainLine(first)
      : `${plural(alerts.length, 'machine')} still running past ${formatThreshold(pastMs)}: ` +
        escapeMrkdwn(alerts.map((alert) => alert.machine.name).join(', '));
  return message(blocks, plain);
}

/**
 * Which limit the message came after, as true for its reader: an alert several people get (the
 * administrators, for a machine nobody owns) comes when the shortest of their limits passes, which may
 * not be the reader's own. Keep running asks the clicker again after their own limit (alert-keep.ts).
 */
function thresholdLine(alerts: readonly CostAlert[]): string {
  const ownMs = alerts[0]?.thresholdMs ?? 0;
  const own = formatThreshold(ownMs);
  const change = `\`${SLASH_COMMAND} alerts 6h\` or \`${SLASH_COMMAND} alerts off\` changes it.`;
  const sooner = alerts.filter((alert) => alert.dueAfterMs < alert.thresholdMs);
  if (sooner.length === 0) {
    return `You are asked after ${own} of running. Keep running asks again after that long; ${change}`;
  }
  const shortest = formatThreshold(Math.min(...sooner.map((alert) => alert.dueAfterMs)));
  const which = alerts.length === 1 ? 'This alert goes' : 'Some of these alerts go';
  return (
    `${which} to several people and came when the shortest of their limits, ${shortest}, had passed; ` +
    `yours is ${own}. Keep running asks you again after ${own}; ${change}`
  );
}

/** The alerts due for one person at once: one message, or several when they do not fit in one. */
export function costAlertMessages(alerts: readonly CostAlert[]): SlackMessage[] {
  const messages: SlackMessage[] = [];
  for (let at = 0; at < alerts.length; at += ALERTS_PER_MESSAGE) {
    messages.push(oneMessage(alerts.slice(at, at + ALERTS_PER_MESSAGE)));
  }
  return messages;
}

/** One machine's alert. */
export function costAlertMessage(alert: CostAlert): SlackMessage {
  return oneMessage([alert]);
}

/** The alert with its buttons replaced by `line`; undefined when the message holds no such alert. */
export function withAlertDone(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
): KnownBlock[] | undefined {
  const blockId = costAlertBlockId(machineId);
  if (!blocks.some((block) => block.block_id === blockId)) return undefined;
  return withoutDeadStopAll(
    blocks.map((block) => (block.block_id === blockId ? { ...contextLine(line), block_id: blockId } : block)),
  );
}

/**
 * The alert with the row's buttons replaced by `line` only while they are still live: a row a click
 * already answered ("kept running", "stopping") keeps its own words. Undefined when nothing changes.
 */
export function withLiveAlertEnded(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
): KnownBlock[] | undefined {
  const blockId = costAlertBlockId(machineId);
  const live = (block: KnownBlock) => block.block_id === blockId && block.type === 'actions';
  if (!blocks.some(live)) return undefined;
  return withoutDeadStopAll(
    blocks.map((block) => (live(block) ? { ...contextLine(line), block_id: blockId } : block)),
  );
}

/** Stop all is dropped once no row has live buttons: there is nothing left for it to stop. */
function withoutDeadStopAll(blocks: KnownBlock[]): KnownBlock[] {
  const anyLive = blocks.some(
    (block) => block.type === 'actions' && block.block_id?.startsWith(ALERT_BLOCK_PREFIX) === true,
  );
  return anyLive ? blocks : blocks.filter((block) => block.block_id !== ALERT_STOP_ALL_BLOCK_ID);
}
