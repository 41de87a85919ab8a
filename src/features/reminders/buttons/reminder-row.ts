// A reminder message lists several machines; a click on one machine's buttons answers in that row
// only, replacing its buttons with a line saying what was done, so the other rows stay usable. A Stop's
// watch redraws the same row once the machine is off (watches/row-messages.ts).

import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { contextLine } from '../../../slack/block-kit/elements.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import {
  type ClickedRows,
  type RowFinisher,
  redrawClickedRow,
  withRowReplaced,
} from '../../watches/row-messages.js';
import {
  reminderBlockId,
  stoppedRowBlockId,
  withRunningCount,
  withUnlistedRunning,
} from '../blocks/reminder.js';
import { withStopEnded } from '../blocks/stop-all-tally.js';

/**
 * The machine's row (with its buttons, or already answered) replaced by `line`. `stopped`: the machine
 * no longer runs (stopping, stopped, or found off), so the header counts one fewer.
 */
function withRowDone(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
  stopped: boolean,
): KnownBlock[] | undefined {
  const ids = { live: reminderBlockId(machineId), stopped: stoppedRowBlockId(machineId) };
  return withRowReplaced(blocks, ids, stopped, (block_id) => ({ ...contextLine(line), block_id }));
}

/** The reminder with the machine's row redrawn, its header (and notification text) recounted. */
function redrawRow(
  message: { blocks: KnownBlock[]; text: string },
  machineId: string,
  line: string,
  stopped: boolean,
): { blocks: KnownBlock[]; text: string } | undefined {
  const rows = withRowDone(message.blocks, machineId, line, stopped);
  if (rows === undefined) return undefined;
  const recounted = withRunningCount(rows);
  if (recounted === undefined) return { blocks: rows, text: message.text };
  // The notification text starts with the header's words: it is recounted with them.
  return { blocks: recounted.blocks, text: `${recounted.title}${message.text.replace(/^[^:]*/, '')}` };
}

/** Updates the clicked row of the reminder (and its header). */
export async function markReminderRow(
  slack: WebClient,
  click: MachineButtonClick,
  rows: ClickedRows,
  line: string,
  options: { stopped?: boolean } = {},
): Promise<void> {
  await redrawClickedRow(slack, click, rows, 'reminder', {
    done: line,
    what: 'the row of a reminder',
    redraw: (message) => redrawRow(message, click.machine.id, line, options.stopped ?? false),
  });
}

/**
 * The row of a machine stopped from the reminder, once its watch ended: a stop that failed leaves the
 * machine running, so it counts in the header again. A watch Stop all started recounts its footer too;
 * the machine may be one the reminder had no room to list, whose failed stop the header counts as well.
 */
export const reminderRowFinished: RowFinisher = (message, ended) => {
  const row = redrawRow(message, ended.machineId, ended.line, ended.reached);
  const counted = withStopEnded((row ?? message).blocks, ended);
  if (counted === undefined) return row;
  const header = row === undefined && !ended.reached ? withUnlistedRunning(counted) : counted;
  const recounted = withRunningCount(header);
  if (recounted === undefined) return { blocks: header, text: message.text };
  return { blocks: recounted.blocks, text: `${recounted.title}${message.text.replace(/^[^:]*/, '')}` };
};
