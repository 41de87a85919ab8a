// /ps help [command]: the command table, or the usage and summary of the commands a topic names.
// An unknown topic never gets here: the parser answers it with a usage error in the ack.
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { helpMessage } from '../../../slack/block-kit/messages.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { COMMANDS, commandsForTopic } from '../../../slack/command-language/command-grammar.js';

export const helpCommand: CommandHandler<'help'> = async (command, context) => {
  const entries = command.topic === null ? COMMANDS : commandsForTopic(command.topic);
  if (entries === null) throw new UserFacingError(`No command is called "${command.topic}". Type /ps help.`);
  await context.replyPrivately(helpMessage([...entries]));
};
