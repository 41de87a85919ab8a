// Stop on a team digest's row: the row Stop every listing message shares (approvals/stop-from-row.ts:
// the clicker's own key; someone else's machine gets the same answer as anywhere else; a stop that went
// through is watched to `off` in the digest's thread, and its row redrawn when it is). A machine found
// already off (stopped elsewhere since the digest was posted) loses its Stop button: its row says so
// for the whole channel. The click is audited as coming from the digest, the stop itself as every stop
// is.
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { createStopFromRow } from '../../approvals/stop-from-row.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { SpendDeps } from '../spend-deps.js';
import { markDigestRow } from './digest-row.js';

export function digestStopHandler(deps: SpendDeps) {
  const stopFromRow = createStopFromRow(deps);
  return machineButtonHandler(deps, (click, { client }) =>
    stopFromRow(click, client, {
      audit: { action: 'digest.stop', note: 'Stop clicked on the team digest' },
      markAlreadyOff: (machine) =>
        markDigestRow(client, click, deps, `⚫ ${nameMrkdwn(machine.name)}: already off, nothing to stop`),
      markStopping: (machine, requestedBy) =>
        markDigestRow(
          client,
          click,
          deps,
          `🟤 ${nameMrkdwn(machine.name)}: stopping, requested by ${requestedBy}`,
        ),
    }),
  );
}
