// What every `/ps` subcommand handler receives: the parsed command, who asked and where, and ways to
// answer. Handlers run after the ack, so they may take their time.
import type { RespondFn } from '@slack/bolt';
import type { Command, CommandName } from './command-language/command-grammar.js';
import type { Interaction } from './interaction.js';

export interface CommandContext extends Interaction {
  /** A command is always typed in a conversation. */
  channelId: string;
  /** Opens a modal; valid for 3 s after Slack sent the command. */
  triggerId: string;
  /** Answers through the command's response_url (ephemeral or in the channel). */
  respond: RespondFn;
}

export type CommandOf<N extends CommandName> = Extract<Command, { name: N }>;
export type CommandHandler<N extends CommandName> = (
  command: CommandOf<N>,
  context: CommandContext,
) => Promise<void>;
export type CommandHandlers = { [N in CommandName]: CommandHandler<N> };
