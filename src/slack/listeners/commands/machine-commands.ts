// Machine commands: show, power (start/stop/restart), create, update, destroy, access, usage.
import type { CommandHandlers } from './command-context.js';

// SCAFFOLD: replaced by the real handlers before this lands.
const notBuiltYet = async (
  _command: unknown,
  context: { replyPrivately: (m: { blocks: []; text: string }) => Promise<void> },
) => context.replyPrivately({ blocks: [], text: 'not built yet' });

export const machineCommandHandlers: Pick<
  CommandHandlers,
  'show' | 'start' | 'stop' | 'restart' | 'create' | 'update' | 'destroy' | 'access' | 'usage'
> = {
  show: notBuiltYet,
  start: notBuiltYet,
  stop: notBuiltYet,
  restart: notBuiltYet,
  create: notBuiltYet,
  update: notBuiltYet,
  destroy: notBuiltYet,
  access: notBuiltYet,
  usage: notBuiltYet,
};
