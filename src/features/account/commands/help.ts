// /ps help [command]: the short help grouped by what people come to do, or the commands a topic names
// in detail. An unknown topic never gets here: the reader answers it with a usage error in the ack.
import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { closestMatch } from '../../../slack/command-language/closest-match.js';
import { accept, fail } from '../../../slack/command-language/command-arguments.js';
import type { CommandLookup } from '../../../slack/command-language/command-definition.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { commandHelpMessage, shortHelpMessage } from '../blocks/help.js';

/** Help describes every command, which only the finished catalogue knows: it is handed in once built. */
export function createHelpOperation(commands: () => CommandLookup) {
  return defineOperation({
    name: 'help',
    aliases: ['--help', '-h'],
    usage: `${ps} help [command]`,
    summary: 'List the commands, or explain one.',
    help: {
      parameters: ['`[command]`: a command (`start`, `remind off`) or a group of them (`script`, `drive`).'],
      examples: [`${ps} help`, `${ps} help remind`],
      effect: 'Answers only you: the commands by what they are for, or one command in detail.',
    },
    kind: 'read',
    params: z.object({
      topic: z
        .string()
        .nullable()
        .describe('A command (start, remind off) or a group of them (script); null for every command.'),
    }),
    read(args, lookup) {
      if (args.length === 0) return accept({ topic: null });
      const typed = args.map((token) => token.text).join(' ');
      const topic = typed.trim().toLowerCase().split(/\s+/).join(' ');
      if (lookup.commandsForTopic(topic) === null) {
        const suggestion = closestMatch(topic, [
          ...lookup.words,
          ...lookup.commands.map((spec) => spec.name),
        ]);
        const hint =
          suggestion === null ? ` Type ${ps} help to see them all.` : ` Did you mean "${suggestion}"?`;
        return fail(`Unknown command ${echo(typed)} in help.${hint}`);
      }
      return accept({ topic });
    },
    async run({ topic }, context) {
      if (topic === null) return context.replyPrivately(shortHelpMessage());
      const entries = commands().commandsForTopic(topic);
      if (entries === null) throw new UserFacingError(`No command is called "${topic}". Type /ps help.`);
      await context.replyPrivately(commandHelpMessage(entries));
    },
  });
}
