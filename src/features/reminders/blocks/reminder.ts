// The shutdown reminder: machines still running at the time the user chose, each with Stop, Snooze 1h
// and Keep running. Button values carry the machine id and name, like the card's. Someone with more
// machines running than one message holds gets the ones that fit and a line saying how many more run
// and where to stop them, so the reminder is always delivered.
import type { Button, KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, header, section } from '../../../slack/block-kit/elements.js';
import { rowsThatFit } from '../../../slack/block-kit/message-budget.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  mrkdwn,
  nameMrkdwn,
  plural,
  type SlackMessage,
} from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import { stopButton } from '../../machines/blocks/machine-card.js';
import { encodeMachineRef } from '../../machines/blocks/machine-ref.js';
import { stateMrkdwn } from '../../machines/blocks/machine-state.js';

const REMINDER_BLOCK_PREFIX = 'reminder:';
/** The row of a machine stopped from the reminder: it no longer counts as running in the header. */
const STOPPED_ROW_PREFIX = 'reminder_stopped:';
/** The header carries how many machines the reminder listed, so a Stop can count down from it. */
export const HEADER_PREFIX = 'reminder_header:';
/** block_id of the "…and N more" line with its Stop all button, replaced by Stop all's outcome. */
export const STOP_ALL_BLOCK_ID = 'reminder_stop_all';

/** block_id of a machine's reminder buttons: unique per machine in the message. */
export function reminderBlockId(machineId: string): string {
  return REMINDER_BLOCK_PREFIX + machineId;
}

/** block_id of the row of a machine that was stopped from the reminder. */
export function stoppedRowBlockId(machineId: string): string {
  return STOPPED_ROW_PREFIX + machineId;
}

export function reminderTitle(running: number): string {
  return running > 0
    ? `⏰ ${plural(running, 'machine')} still running`
    : '✅ Nothing from this reminder is still running';
}

/**
 * The header recounted after a row was stopped: the machines listed, less the rows stopped from it.
 * A reminder posted before the header carried its count is left as it is.
 */
export function withRunningCount(blocks: KnownBlock[]): { blocks: KnownBlock[]; title: string } | undefined {
  const counted = blocks.find((block) => block.block_id?.startsWith(HEADER_PREFIX));
  const listed = Number(counted?.block_id?.slice(HEADER_PREFIX.length));
  if (counted === undefined || !Number.isInteger(listed)) return undefined;
  const stopped = blocks.filter((block) => block.block_id?.startsWith(STOPPED_ROW_PREFIX)).length;
  const title = reminderTitle(Math.max(0, listed - stopped));
  return {
    blocks: blocks.map((block) => (block === counted ? header(title, counted.block_id) : block)),
    title,
  };
}

/** The header counting one more machine still running that the reminder did not list. */
export function withUnlistedRunning(blocks: KnownBlock[]): KnownBlock[] {
  return blocks.map((block) => {
    const listed = Number(block.block_id?.slice(HEADER_PREFIX.length));
    return block.block_id?.startsWith(HEADER_PREFIX) && Number.isInteger(listed)
      ? { ...block, block_id: HEADER_PREFIX + (listed + 1) }
      : block;
  });
}

export function reminderMessage(machines: Machine[]): SlackMessage {
  if (machines.length === 0) {
    const text = 'Nothing is running. 🌙';
    return plainMessage(text);
  }
  const title = reminderTitle(machines.length);
  const head = header(title, HEADER_PREFIX + machines.length);
  const footer = contextLine(
    'Snooze asks again in an hour; Keep running skips this machine until the next reminder.',
  );
  const rows = machines.map(reminderRow);
  const ids = machines.map((machine) => machine.id);
  const shown = rowsThatFit(rows, [head, footer], [moreRunning(machines.length, ids)]);
  const blocks: KnownBlock[] = [head, ...rows.slice(0, shown).flat()];
  if (shown < machines.length) blocks.push(moreRunning(machines.length - shown, ids));
  blocks.push(footer);
  const names = escapeMrkdwn(machines.map((machine) => machine.name).join(', '));
  return message(blocks, `${title}: ${names}`);
}

function reminderRow(machine: Machine): KnownBlock[] {
  const details = [machine.machineType, machine.region].filter((part): part is string => Boolean(part));
  return [
    section(
      [`${nameMrkdwn(machine.name)}`, stateMrkdwn(machine.state), ...details.map(escapeMrkdwn)].join(' · '),
    ),
    reminderActions(machine),
  ];
}

/**
 * The machines one message had no room for, counted in the header too, and how to stop them: Stop all
 * for every machine of the reminder (`ids`), or `/ps list` when their ids do not fit one button.
 */
function moreRunning(count: number, ids: readonly string[]): KnownBlock {
  const more = `…and ${plural(count, 'more machine')} still running, too many for one message`;
  const stopAll = stopAllButton(ids);
  if (stopAll === undefined) {
    return contextLine(`${more}: \`${SLASH_COMMAND} list state=ready\` shows them with their Stop buttons.`);
  }
  return {
    type: 'section',
    block_id: STOP_ALL_BLOCK_ID,
    text: mrkdwn(`${more}. Stop all stops every machine of this reminder, these too.`),
    accessory: stopAll,
  };
}

/**
 * Stop all for the machines `ids` (every machine of the reminder: a machine started after it is never
 * stopped by it), with a confirmation naming how many. Undefined when their ids do not fit in a
 * button's value (about 180 machines).
 */
function stopAllButton(ids: readonly string[]): Button | undefined {
  const value = ids.join(',');
  if (value.length > LIMITS.buttonValue) return undefined;
  const count = plural(ids.length, 'machine');
  return button({
    actionId: ActionId.reminderStopAll,
    text: `Stop all ${ids.length}`,
    value,
    style: 'danger',
    accessibilityLabel: `Stop all ${count} of this reminder`,
    confirm: {
      title: `Stop all ${count}?`,
      text: `This stops all ${count} this reminder is about, the ones not listed here too, with your Paperspace key.`,
      confirm: `Stop ${ids.length}`,
      danger: true,
    },
  });
}

function reminderActions(machine: Machine): KnownBlock {
  const value = encodeMachineRef(machine);
  return {
    type: 'actions',
    block_id: reminderBlockId(machine.id),
    elements: [
      stopButton(machine, ActionId.reminderStop),
      button({
        actionId: ActionId.reminderSnooze,
        text: 'Snooze 1h',
        value,
        accessibilityLabel: `Remind me about ${machine.name} in an hour`,
      }),
      button({
        actionId: ActionId.reminderKeep,
        text: 'Keep running',
        value,
        accessibilityLabel: `Keep ${machine.name} running`,
      }),
    ],
  };
}
