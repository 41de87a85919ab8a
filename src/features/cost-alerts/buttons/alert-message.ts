// After a click on an alert, its buttons give way to a line saying what was done (and by whom), so the
// message stays true in the person's DM.
import type { WebClient } from '@slack/web-api';
import { redrawClickedMessage } from '../../../slack/button-click.js';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { withAlertDone } from '../blocks/cost-alert.js';

export async function markAlert(slack: WebClient, click: MachineButtonClick, line: string): Promise<void> {
  await redrawClickedMessage(slack, click, {
    done: line,
    what: 'a forgotten-machine alert',
    redraw(message) {
      const blocks = withAlertDone(message.blocks, click.machine.id, line);
      return blocks && { blocks };
    },
  });
}
