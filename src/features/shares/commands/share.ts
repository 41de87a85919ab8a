// `/ps share <machine> [<machine> ...] [<@user> ...]`: offers, privately, to share them all (each must
// be visible to the sharer's key) in this channel for 4 hours once confirmed: one resource delegation
// for the channel, or, where the API has none (v1), access for the teammates mentioned.

import type { Machine } from '../../../paperspace/schemas.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { offerShare } from '../share-offer.js';

export const shareCommand: CommandHandler<'share'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  const machines = new Map<string, Machine>();
  for (const reference of command.machines) {
    const machine = await findMachine(client, reference);
    machines.set(machine.id, machine);
  }
  const [first, ...rest] = machines.values();
  // The grammar asks for at least one machine, and each one was found or threw.
  if (first === undefined) return;
  await offerShare(context, [first, ...rest], command.with);
};
