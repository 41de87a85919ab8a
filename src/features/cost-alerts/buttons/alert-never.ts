// Not this machine on a forgotten-machine alert: the clicker is never alerted about it again, however
// long it runs (a build server, a shared notebook). Only its owner or an administrator of its team may
// silence it: anyone else who is alerted (the person who started it, for a machine nobody owns yet)
// would otherwise take the only warning away from whoever answers for it. `/ps alerts` lists what a
// person muted and unmutes it.
import { isOwnedBy, machineOwner } from '../../../domain/machine-owner.js';
import { teamRoleOf } from '../../../domain/team-role.js';
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';
import { markAlert } from './alert-message.js';

export function alertNeverHandler(deps: CostAlertsDeps) {
  return machineButtonHandler(deps, async (click, { client }) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const account = await deps.vault.account(click.user);
    const machine = await paperspace.machines.show(click.machine.id);
    const owner = await machineOwner(deps.store, click.user.teamId, machine);
    const mayMute =
      account !== undefined &&
      (isOwnedBy(owner, { userId: click.user.userId, paperspaceUserId: account.userId }) ||
        (await teamRoleOf(deps, { user: click.user, client: paperspace, paperspaceUserId: account.userId }))
          .role === 'admin');
    if (!mayMute) {
      await click.replyPrivately({
        blocks: [],
        text:
          `Only the owner of ${escapeMrkdwn(machine.name)} or an administrator of its team can stop its alerts for good. ` +
          `Keep running asks you again later; \`${SLASH_COMMAND} alerts off\` turns all of yours off.`,
      });
      return;
    }
    await deps.store.costAlerts.exclude(click.user, { id: machine.id, name: machine.name }, deps.now());
    await markAlert(
      client,
      click,
      deps,
      `🔕 ${nameMrkdwn(machine.name)}: I will never alert you about it again (\`${SLASH_COMMAND} alerts\` lists what you muted).`,
    );
  });
}
