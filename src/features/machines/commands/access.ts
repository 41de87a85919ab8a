// /ps access <machine> grant|revoke <@user|userId>: a mention is mapped to the person's Paperspace user
// through their linked key; the change is audited and confirmed to the asker.

import type { CommandHandler } from '../../../slack/command-context.js';
import { resolveAccessTarget } from '../access-target.js';
import { accessChangedMessage, accessUserNotLinkedMessage } from '../blocks/machine-replies.js';
import { findMachine } from '../machine-lookup.js';
import { createMachineOperations } from '../machine-operations.js';

export const machineAccess: CommandHandler<'access'> = async (command, context) => {
  const { deps, user } = context;
  const who =
    command.user.kind === 'slack'
      ? { slackUserId: command.user.slackUserId }
      : { paperspaceUserId: command.user.userId };
  // Checked before any Paperspace call: an unlinked person cannot be named, whatever the machine.
  const target = await resolveAccessTarget(deps.vault, user.teamId, who);
  if (!target.ok) {
    await context.replyPrivately(accessUserNotLinkedMessage(target.slackUserId));
    return;
  }
  const client = await context.userClient();
  if (!client) return;
  const machine = await findMachine(client, command.machine);
  const enableAccess = command.action === 'grant';
  await createMachineOperations(deps).setAccess({ user, client }, machine.id, {
    paperspaceUserId: target.paperspaceUserId,
    enableAccess,
  });
  await context.replyPrivately(accessChangedMessage(machine.name, target, enableAccess));
};
