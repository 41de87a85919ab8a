// What every `/ps` subcommand handler receives: who asked and where, and ways to answer. Handlers run
// after the ack, so they may take their time.
import type { RespondFn } from '@slack/bolt';
import type { Interaction } from './interaction.js';
import type { RequestReceipt } from './request-receipt.js';

export interface CommandContext extends Interaction {
  /** A command is always typed in a conversation. */
  channelId: string;
  /** Opens a modal; valid for 3 s after Slack sent the command. */
  triggerId: string;
  /** Answers through the command's response_url (ephemeral or in the channel). */
  respond: RespondFn;
  /** The request's receipt, stored before the ack, for an operation that declares one (Operation.receive). */
  receipt?: RequestReceipt;
}

/** Runs a command for the person who typed it, with the parameters its reader made. */
export type CommandHandler<Params> = (params: Params, context: CommandContext) => Promise<void>;
