// A digest lists several machines; a Stop on one replaces that row's button with what was done, so
// the other rows stay usable.
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../../errors/describe-error.js';
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { digestBlockId } from '../blocks/digest.js';

export function withDigestRowDone(
  blocks: KnownBlock[],
  machineId: string,
  line: string,
): KnownBlock[] | undefined {
  const blockId = digestBlockId(machineId);
  if (!blocks.some((block) => block.block_id === blockId)) return undefined;
  return blocks.map((block) =>
    block.block_id === blockId ? { type: 'section', block_id: blockId, text: mrkdwn(line) } : block,
  );
}

/** Updates the clicked row; a digest that cannot be edited is logged, not fatal: the stop went through. */
export async function markDigestRow(
  slack: WebClient,
  click: MachineButtonClick,
  line: string,
): Promise<void> {
  if (click.message === undefined || click.channelId === undefined) return;
  const blocks = withDigestRowDone(click.message.blocks, click.machine.id, line);
  if (blocks === undefined) return;
  try {
    await slack.chat.update({
      channel: click.channelId,
      ts: click.message.ts,
      blocks,
      text: click.message.text,
    });
  } catch (error) {
    click.logger.warn({ error: describeError(error) }, 'could not update the row of a team digest');
  }
}
