// Account and catalogue commands: help, login, whoami, lists (machines, scripts, templates, users,
// networks, drives) with paging, availability, script and drive changes.
import type { CommandHandlers } from './command-context.js';

// SCAFFOLD: replaced by the real handlers before this lands.
const notBuiltYet = async (
  _command: unknown,
  context: { replyPrivately: (m: { blocks: []; text: string }) => Promise<void> },
) => context.replyPrivately({ blocks: [], text: 'not built yet' });

export const accountCommandHandlers: Pick<
  CommandHandlers,
  | 'help'
  | 'list'
  | 'availability'
  | 'login'
  | 'logout'
  | 'whoami'
  | 'scripts'
  | 'script show'
  | 'script text'
  | 'script delete'
  | 'script create'
  | 'templates'
  | 'users'
  | 'networks'
  | 'drives'
  | 'drive create'
  | 'drive delete'
> = {
  help: notBuiltYet,
  login: notBuiltYet,
  logout: notBuiltYet,
  whoami: notBuiltYet,
  scripts: notBuiltYet,
  'script show': notBuiltYet,
  'script text': notBuiltYet,
  'script delete': notBuiltYet,
  'script create': notBuiltYet,
  templates: notBuiltYet,
  users: notBuiltYet,
  networks: notBuiltYet,
  drives: notBuiltYet,
  'drive create': notBuiltYet,
  'drive delete': notBuiltYet,
  list: notBuiltYet,
  availability: notBuiltYet,
};
