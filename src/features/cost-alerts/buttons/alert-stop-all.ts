// Stop all on an alert about several machines: every machine the button names, stopped with the
// clicker's own key as a reminder's Stop all does (reminders/stop-listed-machines.ts); each row then
// says what happened to its machine, and the button gives way to the counts, which each stop's watch
// finishes with its row (alert-message.ts) as a single Stop's does.
import type { KnownBlock } from '@slack/types';
import { contextLine } from '../../../slack/block-kit/elements.js';
import {
  type StopAllOutcome,
  stopAllRowLines,
  stopAllStarted,
  tallyOf,
} from '../../reminders/blocks/stop-all.js';
import { stopAllSummary } from '../../reminders/blocks/stop-all-tally.js';
import { stopAllButton } from '../../reminders/stop-listed-machines.js';
import { redrawClickedRow } from '../../watches/row-messages.js';
import { ALERT_STOP_ALL_BLOCK_ID, costAlertBlockId } from '../blocks/cost-alert.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';

/** The alert once Stop all ran: each stopped or already-off row says so; a failed one keeps its buttons. */
function withAlertStopAllDone(
  blocks: KnownBlock[],
  outcome: StopAllOutcome,
  { clicker, since }: { clicker: string; since: number },
): KnownBlock[] | undefined {
  if (!blocks.some((block) => block.block_id === ALERT_STOP_ALL_BLOCK_ID)) return undefined;
  const lines = new Map(
    [...stopAllRowLines(outcome, clicker)].map(([machineId, line]) => [costAlertBlockId(machineId), line]),
  );
  return blocks.map((block) => {
    const id = block.block_id ?? '';
    if (id === ALERT_STOP_ALL_BLOCK_ID) return stopAllStarted(outcome, clicker, since);
    const line = block.type === 'actions' ? lines.get(id) : undefined;
    return line === undefined ? block : { ...contextLine(line), block_id: id };
  });
}

export function alertStopAllHandler(deps: CostAlertsDeps) {
  return stopAllButton(deps, async (click, client, { outcome, clicker, since }) => {
    await redrawClickedRow(client, click, deps, 'cost_alert', {
      done: stopAllSummary(tallyOf(outcome, clicker, since)),
      what: "an alert's Stop all",
      redraw(message) {
        const blocks = withAlertStopAllDone(message.blocks, outcome, { clicker, since });
        return blocks && { blocks };
      },
    });
  });
}
