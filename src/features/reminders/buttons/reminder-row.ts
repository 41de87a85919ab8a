// A reminder message lists several machines; a click on one machine's buttons answers in that row
// only, replacing its buttons with a line saying what was done, so the other rows stay usable.

import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../../errors/describe-error.js';
import { contextLine } from '../../../slack/block-kit/elements.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { reminderBlockId } from '../blocks/reminder.js';

export function withRowDone(blocks: KnownBlock[], machineId: string, line: string): KnownBlock[] | undefined {
  const blockId = reminderBlockId(machineId);
  if (!blocks.some((block) => block.block_id === blockId)) return undefined;
  return blocks.map((block) =>
    block.block_id === blockId ? { ...contextLine(line), block_id: blockId } : block,
  );
}

/** Updates the clicked row of the reminder; a message that cannot be edited is logged, not fatal. */
export async function markReminderRow(
  slack: WebClient,
  click: MachineButtonClick,
  line: string,
): Promise<void> {
  if (click.message === undefined || click.channelId === undefined) return;
  const blocks = withRowDone(click.message.blocks, click.machine.id, line);
  if (blocks === undefined) return;
  try {
    await slack.chat.update({
      channel: click.channelId,
      ts: click.message.ts,
      blocks,
      text: click.message.text,
    });
  } catch (error) {
    click.logger.warn({ error: describeError(error) }, 'could not update the row of a reminder');
  }
}
