import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { accountCommandHandlers } from './account-commands.js';
import type { CommandHandlers } from './command-context.js';
import { machineCommandHandlers } from './machine-commands.js';
import { registerPsCommand } from './ps-command.js';
import { schedulerCommandHandlers } from './scheduler-commands.js';

// `satisfies` makes a subcommand without a handler a compile error.
const handlers = {
  ...accountCommandHandlers,
  ...machineCommandHandlers,
  ...schedulerCommandHandlers,
} satisfies CommandHandlers;

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerPsCommand(router, deps, handlers);
}
