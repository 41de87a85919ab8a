// What every `/ps` subcommand handler receives: who asked and where, and ways to answer. Handlers run
// after the ack, so they may take their time.
import type { RespondFn } from '@slack/bolt';
import type { Interaction } from './interaction.js';

export interface CommandContext extends Interaction {
  /** A command is always typed in a conversation. */
  channelId: string;
  /** Opens a modal; valid for 3 s after Slack sent the command. */
  triggerId: string;
  /** Answers through the command's response_url (ephemeral or in the channel). */
  respond: RespondFn;
}

/** Runs a command for the person who typed it, with the parameters its reader made. */
export type CommandHandler<Params> = (params: Params, context: CommandContext) => Promise<void>;
