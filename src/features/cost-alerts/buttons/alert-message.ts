// After a click on an alert, its buttons give way to a line saying what was done (and by whom), so the
// message stays true in the person's DM; a Stop's watch redraws that line once the machine is off
// (watches/row-messages.ts).
import type { WebClient } from '@slack/web-api';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { type ClickedRows, type RowFinisher, redrawClickedRow } from '../../watches/row-messages.js';
import { withAlertDone } from '../blocks/cost-alert.js';

export async function markAlert(
  slack: WebClient,
  click: MachineButtonClick,
  rows: ClickedRows,
  line: string,
): Promise<void> {
  await redrawClickedRow(slack, click, rows, 'cost_alert', {
    done: line,
    what: 'a forgotten-machine alert',
    redraw(message) {
      const blocks = withAlertDone(message.blocks, click.machine.id, line);
      return blocks && { blocks };
    },
  });
}

export const alertRowFinished: RowFinisher = (message, machineId, line) => {
  const blocks = withAlertDone(message.blocks, machineId, line);
  return blocks && { blocks, text: message.text };
};
