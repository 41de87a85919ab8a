// A digest lists several machines; a Stop on one replaces that row's button with what was done, so
// the other rows stay usable, and the Stop's watch redraws the row once the machine is off
// (watches/row-messages.ts).
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import {
  type ClickedRows,
  type RowFinisher,
  redrawClickedRow,
  withRowReplaced,
} from '../../watches/row-messages.js';
import { digestBlockId, digestStoppedBlockId, withDigestRunningCount } from '../blocks/digest.js';

/**
 * The machine's row (with its Stop, or already answered) replaced by `line`, and the running count
 * recounted. `stopped`: the machine no longer runs (stopping, stopped, or found off).
 */
function withDigestRowDone(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
  stopped: boolean,
): KnownBlock[] | undefined {
  const ids = { live: digestBlockId(machineId), stopped: digestStoppedBlockId(machineId) };
  const rows = withRowReplaced(blocks, ids, stopped, (block_id) => ({
    type: 'section',
    block_id,
    text: mrkdwn(line),
  }));
  return rows && (withDigestRunningCount(rows) ?? rows);
}

/** Updates the clicked row: a Stop that went through, or a machine found off, no longer runs. */
export async function markDigestRow(
  slack: WebClient,
  click: MachineButtonClick,
  rows: ClickedRows,
  line: string,
): Promise<void> {
  await redrawClickedRow(slack, click, rows, 'digest', {
    done: line,
    what: 'the row of a team digest',
    redraw(message) {
      const blocks = withDigestRowDone(message.blocks, click.machine.id, line, true);
      return blocks && { blocks };
    },
  });
}

/** The row once the Stop's watch ended: a stop that failed leaves the machine running, counted again. */
export const digestRowFinished: RowFinisher = (message, { machineId, line, reached }) => {
  const blocks = withDigestRowDone(message.blocks, machineId, line, reached);
  return blocks && { blocks, text: message.text };
};
