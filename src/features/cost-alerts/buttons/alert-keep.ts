// Keep running on a forgotten-machine alert: no alert about this run of the machine until the
// clicker's threshold has passed again; then they are asked once more.
import { nameMrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';
import { DEFAULT_THRESHOLD_MS, thresholdOf } from '../thresholds.js';
import { markAlert } from './alert-message.js';

export function alertKeepHandler(deps: CostAlertsDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    const threshold = await thresholdOf(deps.store, click.user);
    const until = deps.now() + (threshold.ms ?? DEFAULT_THRESHOLD_MS);
    const name = nameMrkdwn(click.machine.name);
    const kept = await deps.store.costAlerts.keep(click.machine.id, until);
    if (!kept) {
      await markAlert(client, click, deps, `⚫ ${name} is no longer running: nothing to keep.`);
      return;
    }
    const when = slackDate(until, '{date_short_pretty} {time}');
    await markAlert(
      client,
      click,
      deps,
      threshold.ms === null
        ? `🟢 ${name}: kept running. Your alerts are off, so I will not ask again.`
        : `🟢 ${name}: kept running. I will ask again ${when} if it still runs.`,
    );
  });
}
