// /ps destroy <machine> [--release-ip]: nothing is destroyed here. The confirmation modal opens (with
// the command's trigger) and the destroy happens when the person types the machine's name in it.

import type { CommandHandler } from '../../../slack/command-context.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { destroyMachineModal } from '../blocks/destroy-machine-modal.js';
import { findMachine } from '../machine-lookup.js';

export const destroyMachine: CommandHandler<'destroy'> = async (command, context) => {
  const client = await context.userClient();
  if (!client) return;
  await openLoadingModal(context, {
    title: 'Destroy machine',
    loading: `Looking up ${command.machine}…`,
    build: async () => {
      const machine = await findMachine(client, command.machine);
      return destroyMachineModal(
        machine,
        { channelId: context.channelId },
        { releasePublicIp: command.releasePublicIp },
      );
    },
  });
};
