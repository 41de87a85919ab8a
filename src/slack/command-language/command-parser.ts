// Reads the text after `/ps` into a command's parameters, or into an error that names the problem and
// the argument together with the command's usage line. Bad input never reaches a service or the API.
// The commands come from the features' definitions; this file knows only how commands are typed.
// Order of checks: a pasted secret is refused before anything else reads the text (so no error can
// echo it), then the length cap, then tokens (quotes, Slack markup), then the command's own reader.
import { SLASH_COMMAND } from '../ids.js';
import { closestMatch } from './closest-match.js';
import type { CommandDefinition, CommandLookup, CommandSpec } from './command-definition.js';
import { echo } from './echo.js';
import { looksLikeSecret } from './secret-detector.js';
import type { Token } from './tokenize.js';
import { tokenize } from './tokenize.js';

/** Longer texts are refused: no command needs this much, and it bounds the parser's work. */
export const MAX_COMMAND_LENGTH = 4000;

export const SECRET_REFUSAL =
  'That looks like an API key. It was not stored or shown. Rotate it in Paperspace now, then link the new key privately with /ps login.';

/** Answered only if the parser has a bug; the fuzz test checks that no input ever gets it. */
export const PARSER_FAILURE = 'Sorry, that command could not be read. Please report this.';

export type ParseFailure = {
  ok: false;
  /** A sentence naming the problem and the argument; plain text (escape it for mrkdwn when sending). */
  error: string;
  /** The usage line(s) of the command, or the pointer to `/ps help` when the command is unknown. */
  usage: string;
  /** Set when the text was refused because it looks like an API key or token. */
  secretDetected?: true;
};

/** A command read: its definition and the parameters its reader made of the arguments. */
type ParseResult<D extends CommandDefinition = CommandDefinition> =
  | { ok: true; definition: D; params: unknown }
  | ParseFailure;

export interface ParserOptions {
  /** The command an empty text means, whose usage also points to the others (help). */
  help: string;
  /** Said when the first word is a key=value pair, which only makes sense as a filter. */
  keyValueHint: string;
}

export interface CommandParser<D extends CommandDefinition> extends CommandLookup {
  readonly commands: readonly D[];
  /** Reads the text of a `/ps` command. Never throws. */
  parse(text: string): ParseResult<D>;
  usageOf(name: string): string;
  /** Usage lines of the commands that start with `word`, one per line (for errors about a group). */
  groupUsage(word: string): string;
}

export function createCommandParser<D extends CommandDefinition>(
  definitions: readonly D[],
  options: ParserOptions,
): CommandParser<D> {
  const byName = new Map<string, D>();
  for (const definition of definitions) {
    for (const word of [definition.name, ...(definition.aliases ?? [])]) {
      if (byName.has(word)) throw new Error(`Two commands are called "${word}"`);
      byName.set(word, definition);
    }
  }
  const help = byName.get(options.help);
  if (help === undefined) throw new Error(`No command is called "${options.help}"`);
  const generalUsage = help.usage;
  const words = [...new Set(definitions.map((definition) => firstWord(definition.name)))];
  const secretTaker = definitions.find((definition) => definition.secretArguments);

  const commandsForTopic = (topic: string): readonly CommandSpec[] | null => {
    const normalized = topic.trim().toLowerCase().split(/\s+/).join(' ');
    const exact = definitions.filter((definition) => definition.name === normalized);
    if (exact.length > 0) return exact;
    const group = definitions.filter((definition) => firstWord(definition.name) === normalized);
    return group.length > 0 ? group : null;
  };
  const groupUsage = (word: string) =>
    (commandsForTopic(word) ?? []).map((definition) => definition.usage).join('\n');
  const usageOf = (name: string) => byName.get(name)?.usage ?? generalUsage;
  const lookup: CommandLookup = { commands: definitions, words, commandsForTopic };

  /** The usage of the command a text starts with, read without tokens (for errors found while splitting). */
  const usageOfTypedWord = (text: string) => {
    const word = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    return words.includes(word) ? groupUsage(word) : generalUsage;
  };

  /**
   * Whatever follows the secret-taking command (login) is most likely a key the person meant to paste,
   * even one the detector does not recognise: it is answered as a pasted key. Read before tokenizing,
   * so not even a tokenizer error can echo it.
   */
  const hasSecretArgument = (text: string) => {
    if (secretTaker === undefined) return false;
    const [word, ...rest] = text.trim().split(/\s+/);
    return word?.toLowerCase() === secretTaker.name && rest.length > 0;
  };

  const run = (definition: D, args: readonly Token[]): ParseResult<D> => {
    const read = definition.read(args, lookup);
    if (!read.ok) return { ok: false, error: read.error, usage: read.usage ?? definition.usage };
    return { ok: true, definition, params: read.value };
  };

  /** `<group> <subcommand>` where the group is no command itself (script, drive): which subcommand. */
  const unknownSubcommand = (group: string, subToken: Token | undefined): ParseFailure => {
    const members = definitions.filter((definition) => firstWord(definition.name) === group);
    const subcommands = members.map((definition) => definition.name.slice(group.length + 1));
    const choices = `${subcommands.slice(0, -1).join(', ')} or ${subcommands.at(-1)}`;
    const usage = groupUsage(group);
    if (subToken === undefined)
      return { ok: false, error: `Missing ${group} subcommand: use ${choices}.`, usage };
    const sub = subToken.text.toLowerCase();
    const lister = byName.get(`${group}s`);
    const suggestion = sub === 'list' ? null : closestMatch(sub, subcommands);
    const hint =
      sub === 'list' && lister !== undefined
        ? ` To list them, use ${lister.usage}.`
        : suggestion === null
          ? ''
          : ` Did you mean "${suggestion}"?`;
    return {
      ok: false,
      error: `Unknown ${group} subcommand ${echo(subToken.text)}: use ${choices}.${hint}`,
      usage,
    };
  };

  const parse = (text: string): ParseResult<D> => {
    if (looksLikeSecret(text) || hasSecretArgument(text)) {
      return {
        ok: false,
        error: SECRET_REFUSAL,
        usage: secretTaker?.usage ?? generalUsage,
        secretDetected: true,
      };
    }
    if (text.length > MAX_COMMAND_LENGTH) {
      return {
        ok: false,
        error: `The command is too long: ${text.length} characters, and the limit is ${MAX_COMMAND_LENGTH}.`,
        usage: generalUsage,
      };
    }
    const tokenized = tokenize(text);
    if (!tokenized.ok) return { ok: false, error: tokenized.error, usage: usageOfTypedWord(text) };
    const [first, second, ...rest] = tokenized.tokens;
    if (first === undefined) return run(help, []);
    const word = first.text.toLowerCase();
    const command = byName.get(word);
    // A two-word command (`remind off`) wins over its first word; a quoted second word is an argument
    // of a command of that first word (`remind "off"`), but may still name a group's subcommand.
    if (second !== undefined && !(command !== undefined && second.quoted)) {
      const pair = byName.get(`${word} ${second.text.toLowerCase()}`);
      if (pair !== undefined) return run(pair, rest);
    }
    const args = second === undefined ? [] : [second, ...rest];
    if (command !== undefined) return run(command, args);
    if (words.includes(word)) return unknownSubcommand(word, second);
    const suggestion = first.quoted ? null : closestMatch(word, words);
    const hint =
      suggestion !== null
        ? `Did you mean "${suggestion}"?`
        : first.equalsAt > 0
          ? options.keyValueHint
          : `Type ${SLASH_COMMAND} help to see the commands.`;
    return { ok: false, error: `Unknown command ${echo(first.text)}. ${hint}`, usage: generalUsage };
  };

  return {
    ...lookup,
    commands: definitions,
    parse: (text) => {
      try {
        return parse(typeof text === 'string' ? text : '');
      } catch {
        return { ok: false, error: PARSER_FAILURE, usage: generalUsage };
      }
    },
    usageOf,
    groupUsage,
  };
}

function firstWord(name: string): string {
  return name.split(' ')[0] ?? name;
}
