// Scheduler commands: wait, share, shares, reminders.
import type { CommandHandlers } from './command-context.js';

// SCAFFOLD: replaced by the real handlers before this lands.
const notBuiltYet = async (
  _command: unknown,
  context: { replyPrivately: (m: { blocks: []; text: string }) => Promise<void> },
) => context.replyPrivately({ blocks: [], text: 'not built yet' });

export const schedulerCommandHandlers: Pick<
  CommandHandlers,
  'wait' | 'share' | 'shares' | 'remind' | 'reminders' | 'remind off'
> = {
  wait: notBuiltYet,
  share: notBuiltYet,
  shares: notBuiltYet,
  remind: notBuiltYet,
  reminders: notBuiltYet,
  'remind off': notBuiltYet,
};
