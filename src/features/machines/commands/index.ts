// Machine commands: show, power (start/stop/restart), create, update, destroy, access, usage. One
// handler per file under machines/; this table only pairs them with their subcommands.

import { failureText } from '../../../errors/user-message.js';
import { errorMessage } from '../../../slack/block-kit/messages.js';
import type { CommandHandler, CommandHandlers } from '../../../slack/command-context.js';
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

/**
 * Answers a failure of the handler itself. The router would too, but these handlers also call Slack,
 * and a Slack error must be logged through describeError (it carries the request with the bot token).
 */
function answeringFailures<N extends MachineCommand>(handler: CommandHandler<N>): CommandHandler<N> {
  return async (command, context) => {
    try {
      await handler(command, context);
    } catch (error) {
      await context.replyPrivately(errorMessage(failureText(error, context.deps.logger)));
    }
  };
}

export const machineCommandHandlers: Pick<CommandHandlers, MachineCommand> = {
  show: answeringFailures(showMachine),
  start: answeringFailures(powerCommand('start')),
  stop: answeringFailures(powerCommand('stop')),
  restart: answeringFailures(powerCommand('restart')),
  create: answeringFailures(createMachine),
  update: answeringFailures(updateMachine),
  destroy: answeringFailures(destroyMachine),
  access: answeringFailures(machineAccess),
  usage: answeringFailures(machineUsage),
};
