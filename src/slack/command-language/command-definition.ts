// What a feature declares for each `/ps` command it answers: its words, its usage line, its help, and
// the reader that turns the typed arguments into its parameters. The parser (command-catalogue.ts)
// is driven by these declarations and knows no command of its own.
import type { Read } from './command-arguments.js';
import type { Token } from './tokenize.js';

interface CommandHelp {
  /** Each parameter and what it means; empty when the command takes none. */
  readonly parameters: readonly string[];
  /** Whole commands as a person would type them. */
  readonly examples: readonly string[];
  /** What happens when it runs: what is answered, where, and what changes. */
  readonly effect: string;
}

/** The words and help of a command: what `/ps help` shows and every usage error repeats. */
export interface CommandSpec<Name extends string = string> {
  /** One or two words (`list`, `script show`). */
  readonly name: Name;
  readonly usage: string;
  readonly summary: string;
  readonly help: CommandHelp;
}

/** The commands a parser knows, for readers that need to know the others (help). */
export interface CommandLookup {
  /** Every command, in help order. */
  readonly commands: readonly CommandSpec[];
  /** The first words of the commands: what may follow `/ps`. */
  readonly words: readonly string[];
  /**
   * The commands a help topic covers: one command (`start`, `script show`) or a word shared by several
   * (`script`, `drive`, `remind`). Null when the topic names no command.
   */
  commandsForTopic(topic: string): readonly CommandSpec[] | null;
}

export interface CommandDefinition<Name extends string = string, Params = unknown> extends CommandSpec<Name> {
  /** Other first words that mean this command (`--help` for help). */
  readonly aliases?: readonly string[];
  /**
   * Whatever follows the command is taken for a secret the person meant to paste privately, and is
   * refused before anything reads it, so not even an error can echo it (login).
   */
  readonly secretArguments?: boolean;
  /** Reads the tokens after the command's words into its parameters, or says what is wrong. */
  read(args: readonly Token[], lookup: CommandLookup): Read<Params>;
}
