// /ps destroy <machine> [--release-ip]: nothing is destroyed here. The confirmation modal opens (with
// the command's trigger) and the destroy happens when the person types the machine's name in it.

import { z } from 'zod';
import { accept, type OptionSpec } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { defineOperation } from '../../../slack/operation.js';
import { destroyMachineModal } from '../blocks/destroy-machine-modal.js';
import { MACHINE_HELP, machineParameter, readOneMachine } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';

const RELEASE_IP: OptionSpec = { name: '--release-ip', takesValue: false };

export const destroyOperation = defineOperation({
  name: 'destroy',
  usage: `${ps} destroy <machine> [--release-ip]`,
  summary: 'Destroy a machine after you confirm (--release-ip: also release its public IP).',
  help: {
    parameters: [MACHINE_HELP, '`--release-ip`: also release its public IP.'],
    examples: [`${ps} destroy old-box`],
    effect:
      'Opens a confirmation where you type its name; only then is it destroyed, which cannot be undone.',
  },
  kind: 'change',
  params: z.object({
    machine: machineParameter,
    releasePublicIp: z.boolean().describe('Also release the public IP address the machine holds.'),
  }),
  read(args) {
    const read = readOneMachine('destroy', args, [RELEASE_IP]);
    return read.ok
      ? accept({ machine: read.value.machine, releasePublicIp: read.value.options.has(RELEASE_IP.name) })
      : read;
  },
  async run(command, context) {
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
  },
});
