// Stop all on an alert about several machines: every machine the button names, stopped with the
// clicker's own key as a reminder's Stop all does (reminders/stop-listed-machines.ts); each row then
// says what happened to its machine, and the button gives way to the counts.
import type { KnownBlock } from '@slack/types';
import { contextLine } from '../../../slack/block-kit/elements.js';
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { type StopAllOutcome, stopAllSummary } from '../../reminders/blocks/stop-all.js';
import { stopAllButton } from '../../reminders/stop-listed-machines.js';
import { redrawClickedRow } from '../../watches/row-messages.js';
import { ALERT_STOP_ALL_BLOCK_ID, costAlertBlockId } from '../blocks/cost-alert.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';

/** block_id of what Stop all did, in place of its button. */
const STOP_ALL_DONE_BLOCK_ID = 'cost_alert_stop_all_done';

/** The alert once Stop all ran: each stopped or already-off row says so; a failed one keeps its buttons. */
function withAlertStopAllDone(
  blocks: KnownBlock[],
  outcome: StopAllOutcome,
  clicker: string,
): KnownBlock[] | undefined {
  if (!blocks.some((block) => block.block_id === ALERT_STOP_ALL_BLOCK_ID)) return undefined;
  const lines = new Map<string, string>();
  for (const machine of outcome.stopping) {
    lines.set(
      costAlertBlockId(machine.id),
      `🟤 ${nameMrkdwn(machine.name)}: stopping, Stop all by ${clicker}`,
    );
  }
  for (const machine of [...outcome.alreadyOff, ...outcome.alreadyRequested]) {
    lines.set(costAlertBlockId(machine.id), `⚫ ${nameMrkdwn(machine.name)}: already off or being stopped`);
  }
  return blocks.map((block) => {
    const id = block.block_id ?? '';
    if (id === ALERT_STOP_ALL_BLOCK_ID) {
      return { ...contextLine(stopAllSummary(outcome, clicker)), block_id: STOP_ALL_DONE_BLOCK_ID };
    }
    const line = block.type === 'actions' ? lines.get(id) : undefined;
    return line === undefined ? block : { ...contextLine(line), block_id: id };
  });
}

export function alertStopAllHandler(deps: CostAlertsDeps) {
  return stopAllButton(deps, async (click, client, { outcome, clicker }) => {
    await redrawClickedRow(client, click, deps, 'cost_alert', {
      done: stopAllSummary(outcome, clicker),
      what: "an alert's Stop all",
      redraw(message) {
        const blocks = withAlertStopAllDone(message.blocks, outcome, clicker);
        return blocks && { blocks };
      },
    });
  });
}
