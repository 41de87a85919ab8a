// /ps show <machine>: the machine card, to the asker alone, with its recent events and the buttons
// the asker can use. The asker's team role (for a teammate's machine) is read beside the machine's
// own calls and kept per team, as for /ps list (machine-permissions.ts), never after them.
import { z } from 'zod';
import { ownHourlyRate } from '../../../domain/hourly-rate.js';
import { accept } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { machineCardMessage } from '../blocks/machine-card.js';
import { machineEventsLine } from '../blocks/machine-events.js';
import { MACHINE_HELP, machineParameter, readOneMachine } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';
import { viewerButtons } from '../machine-permissions.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { MachinesWiring } from '../machines-wiring.js';

export const showOperation = (leases: MachinesWiring['leases']) =>
  defineOperation({
    name: 'show',
    usage: `${ps} show <machine>`,
    summary: 'Show a machine card. <machine> is an id or a unique name.',
    help: {
      parameters: [MACHINE_HELP],
      examples: [`${ps} show gpu-1`],
      effect: 'Posts the live card of one machine: state, type, region, owner, and its buttons.',
    },
    kind: 'read',
    tool: {
      name: 'show_machine',
      title: 'Show a machine',
      description:
        'Shows one Paperspace machine: its state, type, region, price per hour, owner, public IP and recent events.',
      idempotent: true,
    },
    params: z.object({ machine: machineParameter }),
    read(args) {
      const read = readOneMachine('show', args);
      return read.ok ? accept({ machine: read.value.machine }) : read;
    },
    async run(command, context, deps: MachinesDeps) {
      // The key and its account in one read of the vault: the card's buttons need the account.
      const linked = await context.linkedClient();
      if (!linked) return;
      const { client, account } = linked;
      const buttonsFor = viewerButtons(deps, { user: context.user, client, account });
      const found = await findMachine(client, command.machine);
      // The list result has no events; show has them.
      const machine = await client.machines.show(found.id);
      const notice = machineEventsLine(machine.events);
      // The contract lists no rate: one utilization read gives the machine's own; the card shows the
      // type's list price, said to be one, when it cannot be read.
      const [forMachine, hourlyRate, leaseOf] = await Promise.all([
        buttonsFor([machine]),
        ownHourlyRate(client, machine, deps.now()),
        leases(deps, context.user, account.teamId, [machine]),
      ]);
      const lease = leaseOf.get(machine.id);
      await context.replyPrivately(
        machineCardMessage(machine, {
          buttons: forMachine(machine),
          ...(notice ? { notice } : {}),
          ...(hourlyRate ? { hourlyRate } : {}),
          ...(lease ? { lease } : {}),
        }),
      );
    },
  });
