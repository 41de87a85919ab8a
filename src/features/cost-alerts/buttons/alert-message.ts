// After a click on an alert, its buttons give way to a line saying what was done (and by whom), so the
// message stays true in the person's DM; a Stop's watch redraws that line once the machine is off
// (watches/row-messages.ts), and recounts the footer of the Stop all that sent it.
import type { WebClient } from '@slack/web-api';
import type { MachineButtonClick } from '../../machines/machine-button.js';
import { withStopEnded } from '../../reminders/blocks/stop-all-tally.js';
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

/** The row once its Stop's watch ended, and the counts of the Stop all that started it, if one did. */
export const alertRowFinished: RowFinisher = (message, ended) => {
  const row = withAlertDone(message.blocks, ended.machineId, ended.line);
  const blocks = withStopEnded(row ?? message.blocks, ended) ?? row;
  return blocks && { blocks, text: message.text };
};
