// /ps help [command]: the command table, or the usage and summary of the commands a topic names.
// An unknown topic never gets here: the parser answers it with a usage error in the ack.
import { UserFacingError } from '../../../../services/user-facing-error.js';
import { helpMessage } from '../../../blocks/messages.js';
import { COMMANDS, commandsForTopic } from '../../../command-grammar.js';
import type { CommandHandler } from '../command-context.js';

export const helpCommand: CommandHandler<'help'> = async (command, context) => {
  const entries = command.topic === null ? COMMANDS : commandsForTopic(command.topic);
  if (entries === null) throw new UserFacingError(`No command is called "${command.topic}". Type /ps help.`);
  await context.replyPrivately(helpMessage([...entries]));
};
