// /ps show <machine>: the machine card, to the asker alone, with its recent events and the buttons
// the asker can use.

import type { CommandHandler } from '../../../slack/command-context.js';
import { machineCardMessage } from '../blocks/machine-card.js';
import { machineEventsLine } from '../blocks/machine-events.js';
import { findMachine } from '../machine-lookup.js';
import { viewerButtons } from '../machine-permissions.js';

export const showMachine: CommandHandler<'show'> = async (command, context) => {
  const client = await context.userClient();
  if (!client) return;
  const found = await findMachine(client, command.machine);
  // The list result has no events; show has them.
  const machine = await client.machines.show(found.id);
  const notice = machineEventsLine(machine.events);
  const paperspaceUserId = (await context.deps.vault.account(context.user))?.userId;
  const buttons = (
    await viewerButtons(context.deps, { user: context.user, client, paperspaceUserId }, [machine])
  )(machine);
  await context.replyPrivately(machineCardMessage(machine, { buttons, ...(notice ? { notice } : {}) }));
};
