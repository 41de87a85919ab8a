// `/ps share <machine> [<machine> ...]`: one resource delegation for all of them, made with the
// sharer's key (each machine must be visible to it), posted in this channel for 4 hours.

import type { Machine } from '../../../paperspace/schemas.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { postedInDmNotice } from '../../../slack/posting.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { shareMachines } from '../sharing.js';

export const shareCommand: CommandHandler<'share'> = async (command, context) => {
  const client = await context.userClient();
  if (client === undefined) return;
  const machines = new Map<string, Machine>();
  for (const reference of command.machines) {
    const machine = await findMachine(client, reference);
    machines.set(machine.id, machine);
  }
  const { deps } = context;
  const share = await shareMachines(
    { store: deps.store, audit: deps.audit, slack: context.web, now: deps.now },
    client,
    { user: context.user, channel: context.channelId, machines: [...machines.values()] },
  );
  if (share.posted.movedToDm) await context.replyPrivately(postedInDmNotice('the share'));
};
