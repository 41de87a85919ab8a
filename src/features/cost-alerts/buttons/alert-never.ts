// Not this machine on a forgotten-machine alert: the clicker is never alerted about it again, however
// long it runs (a build server, a shared notebook).
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';
import { markAlert } from './alert-message.js';

export function alertNeverHandler(deps: CostAlertsDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    await deps.store.costAlerts.exclude(click.user, click.machine.id, deps.now());
    await markAlert(
      client,
      click,
      deps,
      `🔕 ${nameMrkdwn(click.machine.name)}: I will never alert you about it again.`,
    );
  });
}
