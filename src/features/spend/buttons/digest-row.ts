// A digest lists several machines; a Stop on one replaces that row's button with what was done, so
// the other rows stay usable, and the Stop's watch redraws the row once the machine is off
// (watches/row-messages.ts).
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { type RowFinisher, redrawClickedRow } from '../../watches/row-messages.js';
import { digestBlockId } from '../blocks/digest.js';

function withDigestRowDone(blocks: KnownBlock[], machineId: string, line: string): KnownBlock[] | undefined {
  const blockId = digestBlockId(machineId);
  if (!blocks.some((block) => block.block_id === blockId)) return undefined;
  return blocks.map((block) =>
    block.block_id === blockId ? { type: 'section', block_id: blockId, text: mrkdwn(line) } : block,
  );
}

/** Updates the clicked row. */
export async function markDigestRow(
  slack: WebClient,
  click: MachineButtonClick,
  line: string,
): Promise<void> {
  await redrawClickedRow(slack, click, 'digest', {
    done: line,
    what: 'the row of a team digest',
    redraw(message) {
      const blocks = withDigestRowDone(message.blocks, click.machine.id, line);
      return blocks && { blocks };
    },
  });
}

export const digestRowFinished: RowFinisher = (message, machineId, line) => {
  const blocks = withDigestRowDone(message.blocks, machineId, line);
  return blocks && { blocks, text: message.text };
};
