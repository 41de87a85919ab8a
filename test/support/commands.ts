// The bot's `/ps` catalogue as the parser tests read it: a parsed command as its name with its
// parameters, beside the usage lines and topics the help shows.
import { type Command, commands } from '../../src/features/catalogue.js';
import type { ParseFailure } from '../../src/slack/command-language/command-parser.js';

export type { Command, CommandName } from '../../src/features/catalogue.js';

export type ParseResult = { ok: true; command: Command } | ParseFailure;

export function parseCommand(text: string): ParseResult {
  const result = commands.parse(text);
  if (!result.ok) return result;
  // The parser pairs each definition with what its own reader made: the pair is a Command.
  return { ok: true, command: { name: result.definition.name, ...(result.params as object) } as Command };
}

export const COMMANDS = commands.commands;
export const COMMAND_WORDS = commands.words;
export const GENERAL_USAGE = commands.usageOf('help');
export const commandsForTopic = (topic: string) => commands.commandsForTopic(topic);
export const usageOf = (name: string) => commands.usageOf(name);
