// Stop on a forgotten-machine alert: the row Stop every listing message shares (approvals/
// stop-from-row.ts: the clicker's own key, audited as machine.stop, a watch to off with a reply in the
// alert's thread); the alert says who stopped it, or that it was already off.
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { createStopFromRow } from '../../approvals/stop-from-row.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';
import { markAlert } from './alert-message.js';

export function alertStopHandler(deps: CostAlertsDeps) {
  const stopFromRow = createStopFromRow(deps);
  return machineButtonHandler(deps, (click, { client }) =>
    stopFromRow(click, client, {
      markAlreadyOff: (machine) =>
        markAlert(client, click, deps, `⚫ ${nameMrkdwn(machine.name)} was already off: nothing to stop.`),
      markStopping: (machine, requestedBy) =>
        markAlert(
          client,
          click,
          deps,
          `🟤 ${nameMrkdwn(machine.name)}: stopping, requested by ${requestedBy}.`,
        ),
    }),
  );
}
