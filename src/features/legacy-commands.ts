import type { CommandHandlers } from '../slack/command-context.js';
import type { ListenerDeps } from '../slack/listener-deps.js';
import { registerPsCommand } from '../slack/ps-command.js';
import type { ListenerRouter } from '../slack/router.js';
import { accountCommandHandlers } from './catalog/commands/index.js';
import { machineCommandHandlers } from './machines/commands/index.js';
import { schedulerCommandHandlers } from './reminders/commands/index.js';

// `satisfies` makes a subcommand without a handler a compile error.
const handlers = {
  ...accountCommandHandlers,
  ...machineCommandHandlers,
  ...schedulerCommandHandlers,
} satisfies CommandHandlers;

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerPsCommand(router, deps, handlers);
}
