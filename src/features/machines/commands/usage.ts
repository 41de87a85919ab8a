// /ps usage <machine> [YYYY-MM]: hours and cost for a billing month (this UTC month by default).

import type { CommandHandler } from '../../../slack/command-context.js';
import { usageMessage } from '../blocks/usage.js';
import { findMachine } from '../machine-lookup.js';
import { createMachineOperations } from '../machine-operations.js';

export const machineUsage: CommandHandler<'usage'> = async (command, context) => {
  const client = await context.userClient();
  if (!client) return;
  const { deps } = context;
  const machine = await findMachine(client, command.machine);
  const utilization = await createMachineOperations(deps).usage(
    { user: context.user, client },
    machine.id,
    command.month,
  );
  const estimated = client.capabilities.utilization === 'estimated';
  await context.replyPrivately(usageMessage(machine.name, utilization, deps.now(), estimated));
};
