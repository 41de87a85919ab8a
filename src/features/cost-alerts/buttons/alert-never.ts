// Not this machine on a forgotten-machine alert: the clicker is never alerted about it again, however
// long it runs (a build server, a shared notebook).
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import { markAlert } from './alert-message.js';

export function alertNeverHandler(deps: ListenerDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    await deps.store.costAlerts.exclude(click.user, click.machine.id, deps.now());
    await markAlert(
      client,
      click,
      `🔕 ${nameMrkdwn(click.machine.name)}: I will never alert you about it again.`,
    );
  });
}
