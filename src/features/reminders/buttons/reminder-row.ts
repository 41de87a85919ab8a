// A reminder message lists several machines; a click on one machine's buttons answers in that row
// only, replacing its buttons with a line saying what was done, so the other rows stay usable.

import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { contextLine } from '../../../slack/block-kit/elements.js';
import { redrawClickedMessage } from '../../../slack/button-click.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { reminderBlockId, stoppedRowBlockId, withRunningCount } from '../blocks/reminder.js';

/** `stopped`: the machine no longer runs (stopped, or found off), so the header counts one fewer. */
function withRowDone(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
  stopped = false,
): KnownBlock[] | undefined {
  const blockId = reminderBlockId(machineId);
  if (!blocks.some((block) => block.block_id === blockId)) return undefined;
  const doneId = stopped ? stoppedRowBlockId(machineId) : blockId;
  return blocks.map((block) =>
    block.block_id === blockId ? { ...contextLine(line), block_id: doneId } : block,
  );
}

/** Updates the clicked row of the reminder (and its header). */
export async function markReminderRow(
  slack: WebClient,
  click: MachineButtonClick,
  line: string,
  options: { stopped?: boolean } = {},
): Promise<void> {
  await redrawClickedMessage(slack, click, {
    done: line,
    what: 'the row of a reminder',
    redraw(message) {
      const rows = withRowDone(message.blocks, click.machine.id, line, options.stopped);
      if (rows === undefined) return undefined;
      const recounted = options.stopped ? withRunningCount(rows) : undefined;
      if (recounted === undefined) return { blocks: rows };
      // The notification text starts with the header's words: it is recounted with them.
      return { blocks: recounted.blocks, text: `${recounted.title}${message.text.replace(/^[^:]*/, '')}` };
    },
  });
}
