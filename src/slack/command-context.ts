// What every `/ps` subcommand handler receives: the parsed command, who asked and where, and ways to
// answer. Handlers run after the ack, so they may take their time.
import type { RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { PaperspaceClient } from '../paperspace/client.js';
import type { SlackUser } from '../store/slack-user.js';
import type { SlackMessage } from './block-kit/text.js';
import type { Command, CommandName } from './command-language/command-grammar.js';
import type { ListenerDeps } from './listener-deps.js';

export interface CommandContext {
  deps: ListenerDeps;
  user: SlackUser;
  channelId: string;
  /** Opens a modal; valid for 3 s after Slack sent the command. */
  triggerId: string;
  /** Carried into Paperspace calls (X-Request-Id) and logs. */
  requestId: string;
  /** Bolt's Web API client for this request (the bot token). */
  client: WebClient;
  respond: RespondFn;
  /** Answers only the person who typed the command. */
  replyPrivately(message: SlackMessage): Promise<void>;
  /** The user's own Paperspace client; when they have linked no key, shows the login prompt and returns undefined. */
  userClient(): Promise<PaperspaceClient | undefined>;
}

export type CommandOf<N extends CommandName> = Extract<Command, { name: N }>;
export type CommandHandler<N extends CommandName> = (
  command: CommandOf<N>,
  context: CommandContext,
) => Promise<void>;
export type CommandHandlers = { [N in CommandName]: CommandHandler<N> };
