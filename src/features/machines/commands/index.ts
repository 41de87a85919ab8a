// Machine commands: show, power (start/stop/restart), create, update, destroy, access, usage. One
// handler per file under machines/; this table only pairs them with their subcommands.

import type { CommandHandlers } from '../../../slack/command-context.js';
import { machineAccess } from './access.js';
import { createMachine } from './create.js';
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

export const machineCommandHandlers: Pick<CommandHandlers, MachineCommand> = {
  show: showMachine,
  start: powerCommand('start'),
  stop: powerCommand('stop'),
  restart: powerCommand('restart'),
  create: createMachine,
  update: updateMachine,
  destroy: destroyMachine,
  access: machineAccess,
  usage: machineUsage,
};
