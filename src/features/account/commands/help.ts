// /ps help [command]: the short help grouped by what people come to do, or the commands a topic names
// in detail. An unknown topic never gets here: the parser answers it with a usage error in the ack.
import { UserFacingError } from '../../../errors/user-facing-error.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { commandsForTopic } from '../../../slack/command-language/command-grammar.js';
import { commandHelpMessage, shortHelpMessage } from '../blocks/help.js';

export const helpCommand: CommandHandler<'help'> = async (command, context) => {
  if (command.topic === null) return context.replyPrivately(shortHelpMessage());
  const entries = commandsForTopic(command.topic);
  if (entries === null) throw new UserFacingError(`No command is called "${command.topic}". Type /ps help.`);
  await context.replyPrivately(commandHelpMessage(entries));
};
