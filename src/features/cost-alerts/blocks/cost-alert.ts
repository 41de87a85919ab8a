// The direct message about a machine left running past its owner's threshold: its name, since when it
// runs, what it has cost so far at its rate, and Stop, Keep running and Not this machine. A click
// replaces the buttons with a line saying what was done, so the message tells the whole story.
import type { KnownBlock } from '@slack/types';
import { costAtRate, roundToCents } from '../../../domain/money.js';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { formatHourlyRate, formatHoursMinutes, formatMoney } from '../../../slack/block-kit/format.js';
import { message, nameMrkdwn, type SlackMessage, slackDate } from '../../../slack/block-kit/text.js';
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
  thresholdMs: number;
}

const ALERT_BLOCK_PREFIX = 'cost_alert:';

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

export function costAlertMessage(alert: CostAlert): SlackMessage {
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
  const blocks: KnownBlock[] = [
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
    contextLine(
      `You are asked after ${formatThreshold(alert.thresholdMs)} of running. Keep running asks again after ` +
        `that long; \`${SLASH_COMMAND} alerts 6h\` or \`${SLASH_COMMAND} alerts off\` changes it.`,
    ),
  ];
  const plain = `${machine.name} has been running for ${formatHoursMinutes(runningMs / 1000)}${cost === undefined ? '' : `, about ${cost.cost} so far`}`;
  return message(blocks, plain);
}

/** The alert with its buttons replaced by `line`; undefined when the message holds no such alert. */
export function withAlertDone(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
): KnownBlock[] | undefined {
  const blockId = costAlertBlockId(machineId);
  if (!blocks.some((block) => block.block_id === blockId)) return undefined;
  return blocks.map((block) =>
    block.block_id === blockId ? { ...contextLine(line), block_id: blockId } : block,
  );
}
