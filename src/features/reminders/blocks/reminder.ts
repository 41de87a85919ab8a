// The shutdown reminder: machines still running at the time the user chose, each with Stop, Snooze 1h
// and Keep running. Button values carry the machine id and name, like the card's.
import type { KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine } from '../../../slack/block-kit/elements.js';
import {
  escapeMrkdwn,
  LIMITS,
  message,
  mrkdwn,
  nameMrkdwn,
  plainText,
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
export const MAX_REMINDER_MACHINES = Math.floor((LIMITS.messageBlocks - OVERHEAD) / BLOCKS_PER_MACHINE);

const REMINDER_BLOCK_PREFIX = 'reminder:';

/** block_id of a machine's reminder buttons: unique per machine in the message. */
export function reminderBlockId(machineId: string): string {
  return REMINDER_BLOCK_PREFIX + machineId;
}

export function reminderMessage(machines: Machine[]): SlackMessage {
  if (machines.length === 0) {
    const text = 'Nothing is running. 🌙';
    return { blocks: [{ type: 'section', text: mrkdwn(text) }], text };
  }
  const title = `⏰ ${plural(machines.length, 'machine')} still running`;
  const blocks: KnownBlock[] = [{ type: 'header', text: plainText(title, LIMITS.headerText) }];
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
