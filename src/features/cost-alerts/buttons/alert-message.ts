// After a click on an alert, its buttons give way to a line saying what was done (and by whom), so the
// message stays true in the person's DM. A message that cannot be edited is logged, not fatal: the
// action itself already happened.
import type { WebClient } from '@slack/web-api';
import { redrawClickedMessage } from '../../../slack/button-click.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { withAlertDone } from '../blocks/cost-alert.js';

export async function markAlert(slack: WebClient, click: MachineButtonClick, line: string): Promise<void> {
  if (click.message === undefined || click.channelId === undefined) {
    await click.replyPrivately({ blocks: [], text: line });
    return;
  }
  const blocks = withAlertDone(click.message.blocks, click.machine.id, line);
  if (blocks === undefined) return;
  await redrawClickedMessage(slack, click, { blocks }, 'a forgotten-machine alert');
}
