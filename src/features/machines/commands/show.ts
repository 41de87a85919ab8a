// /ps show <machine>: the machine card, to the asker alone, with its recent events and the buttons
// the asker can use. The asker's team role (for a teammate's machine) is read beside the machine's
// own calls and kept per team, as for /ps list (machine-permissions.ts), never after them.

import type { CommandHandler } from '../../../slack/command-context.js';
import { machineCardMessage } from '../blocks/machine-card.js';
import { machineEventsLine } from '../blocks/machine-events.js';
import { findMachine } from '../machine-lookup.js';
import { viewerButtons } from '../machine-permissions.js';

export const showMachine: CommandHandler<'show'> = async (command, context) => {
  // The key and its account in one read of the vault: the card's buttons need the account.
  const linked = await context.linkedClient();
  if (!linked) return;
  const { client, account } = linked;
  const buttonsFor = viewerButtons(context.deps, { user: context.user, client, account });
  const found = await findMachine(client, command.machine);
  // The list result has no events; show has them.
  const machine = await client.machines.show(found.id);
  const notice = machineEventsLine(machine.events);
  const buttons = (await buttonsFor([machine]))(machine);
  await context.replyPrivately(machineCardMessage(machine, { buttons, ...(notice ? { notice } : {}) }));
};
