// The shutdown reminder: machines still running at the time the user chose, each with Stop, Snooze 1h
// and Keep running. Button values carry the machine id and name, like the card's.
import type { KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, header } from '../../../slack/block-kit/elements.js';
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

/** A section and an actions block per machine. */
const BLOCKS_PER_MACHINE = 2;
/** Header, "and N more" line and footer. */
const OVERHEAD = 3;
const MAX_REMINDER_MACHINES = Math.floor((LIMITS.messageBlocks - OVERHEAD) / BLOCKS_PER_MACHINE);

const REMINDER_BLOCK_PREFIX = 'reminder:';
/** The row of a machine stopped from the reminder: it no longer counts as running in the header. */
const STOPPED_ROW_PREFIX = 'reminder_stopped:';
/** The header carries how many machines the reminder listed, so a Stop can count down from it. */
const HEADER_PREFIX = 'reminder_header:';

/** block_id of a machine's reminder buttons: unique per machine in the message. */
export function reminderBlockId(machineId: string): string {
  return REMINDER_BLOCK_PREFIX + machineId;
}

/** block_id of the row of a machine that was stopped from the reminder. */
export function stoppedRowBlockId(machineId: string): string {
  return STOPPED_ROW_PREFIX + machineId;
}

function reminderTitle(running: number): string {
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

export function reminderMessage(machines: Machine[]): SlackMessage {
  if (machines.length === 0) {
    const text = 'Nothing is running. 🌙';
    return { blocks: [{ type: 'section', text: mrkdwn(text) }], text };
  }
  const title = reminderTitle(machines.length);
  const blocks: KnownBlock[] = [header(title, HEADER_PREFIX + machines.length)];
  const shown = machines.slice(0, MAX_REMINDER_MACHINES);
  for (const machine of shown) {
    const details = [machine.machineType, machine.region].filter((part): part is string => Boolean(part));
    blocks.push({
      type: 'section',
      text: mrkdwn(
        [`${nameMrkdwn(machine.name)}`, stateMrkdwn(machine.state), ...details.map(escapeMrkdwn)].join(' · '),
      ),
    });
    blocks.push(reminderActions(machine));
  }
  if (machines.length > shown.length) {
    blocks.push(contextLine(`… and ${machines.length - shown.length} more, use \`${SLASH_COMMAND} list\``));
  }
  blocks.push(
    contextLine('Snooze asks again in an hour; Keep running skips this machine until the next reminder.'),
  );
  const names = escapeMrkdwn(machines.map((machine) => machine.name).join(', '));
  return message(blocks, `${title}: ${names}`);
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
