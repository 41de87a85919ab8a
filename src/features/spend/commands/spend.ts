// /ps spend [YYYY-MM] [page=N]: what the month has cost so far (or a past month), for an administrator
// the whole team's by person, for anyone else their own machines. Read with the asker's own key.
import type { CommandHandler } from '../../../slack/command-context.js';
import { spendReply } from '../spend-reply.js';

export const spend: CommandHandler<'spend'> = async (command, context) => {
  const reply = await spendReply(context, command.month, command.page);
  if (reply !== undefined) await context.replyPrivately(reply);
};
