// Machine commands: show, power (start/stop/restart), create, update, destroy, access, usage. One
// handler per file under machines/; this table only pairs them with their subcommands, handing the
// power and create commands the requests they make of the approvals feature (machines-wiring.ts).

import type { CommandHandlers } from '../../../slack/command-context.js';
import type { OwnerRequests } from '../machines-wiring.js';
import { machineAccess } from './access.js';
import { createMachineCommand } from './create.js';
import { destroyMachine } from './destroy.js';
import { powerCommand } from './power.js';
import { showMachine } from './show.js';
import { updateMachine } from './update.js';
import { machineUsage } from './usage.js';

type MachineCommand =
  | 'show'
  | 'start'
  | 'stop'
  | 'restart'
  | 'create'
  | 'update'
  | 'destroy'
  | 'access'
  | 'usage';

export function machineCommandHandlers(requests: OwnerRequests): Pick<CommandHandlers, MachineCommand> {
  return {
    show: showMachine,
    start: powerCommand('start', requests),
    stop: powerCommand('stop', requests),
    restart: powerCommand('restart', requests),
    create: createMachineCommand(requests),
    update: updateMachine,
    destroy: destroyMachine,
    access: machineAccess,
    usage: machineUsage,
  };
}
