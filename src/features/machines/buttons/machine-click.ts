// What every machine card button needs to know about a click: who clicked (they act with their own
// key, never the card poster's), where the card is (a channel message to update in place, an ephemeral
// reply with nothing to update, or App Home), and how to answer the clicker alone.
import type { BlockAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { failureText } from '../../../errors/user-message.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import { errorMessage, loginPrompt } from '../../../slack/block-kit/messages.js';
import type { ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { SlackUser } from '../../../store/slack-user.js';

export type CardLocation =
  | { kind: 'message'; channel: string; ts: string; threadTs?: string }
  /** An ephemeral reply: Slack sends no message, so there is nothing to update. */
  | { kind: 'ephemeral'; channel: string }
  /** App Home (or a modal): no channel at all. */
  | { kind: 'home' };

export interface MachineClick {
  deps: ListenerDeps;
  user: SlackUser;
  card: CardLocation;
  web: WebClient;
  triggerId: string;
  /** Answers only the clicker: ephemeral in the conversation, or in their DM from App Home. */
  reply(message: SlackMessage): Promise<void>;
  /** Replaces the ephemeral card that was clicked; a no-op elsewhere. */
  replaceEphemeral(message: SlackMessage): Promise<void>;
  /** The clicker's own client; when they linked no key, shows them the login prompt and answers undefined. */
  userClient(): Promise<PaperspaceClient | undefined>;
}

function locate(body: BlockAction): CardLocation {
  const channel = body.channel?.id ?? stringOf(body.container.channel_id);
  if (channel !== undefined && body.container.is_ephemeral === true) return { kind: 'ephemeral', channel };
  if (channel !== undefined && body.message !== undefined) {
    const threadTs = stringOf(body.message.thread_ts);
    return { kind: 'message', channel, ts: body.message.ts, ...(threadTs ? { threadTs } : {}) };
  }
  return { kind: 'home' };
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Where a modal opened from this card answers after its submission. */
export function modalContextOf(card: CardLocation): ModalContext {
  if (card.kind === 'home') return {};
  if (card.kind === 'ephemeral') return { channelId: card.channel };
  return {
    channelId: card.channel,
    messageTs: card.ts,
    ...(card.threadTs ? { threadTs: card.threadTs } : {}),
  };
}

export interface ClickArgs {
  body: BlockAction;
  respond: RespondFn;
  client: WebClient;
}

export function readClick(deps: ListenerDeps, { body, respond, client }: ClickArgs): MachineClick {
  const user = { teamId: body.user.team_id ?? body.team?.id ?? '', userId: body.user.id };
  // The request's id is on every line this logger writes and on every Paperspace call made while serving
  // the click: the bot's request scope adds it (src/observability/request-scope.ts).
  const logger: Logger = deps.logger.child({ action: body.actions[0]?.action_id, user: user.userId });
  const card = locate(body);
  // Bolt offers respond() only when Slack sent a response_url (not from App Home).
  const hasResponseUrl = typeof body.response_url === 'string' && body.response_url !== '';
  const reply = async (message: SlackMessage) => {
    if (hasResponseUrl) await respond({ response_type: 'ephemeral', replace_original: false, ...message });
    else await client.chat.postMessage({ channel: user.userId, ...message });
  };
  return {
    deps: { ...deps, logger },
    user,
    card,
    web: client,
    triggerId: body.trigger_id,
    reply,
    async replaceEphemeral(message) {
      if (card.kind === 'ephemeral' && hasResponseUrl) await respond({ replace_original: true, ...message });
    },
    async userClient() {
      const userClient = await deps.clients.forUser(user);
      if (userClient === undefined) await reply(loginPrompt());
      return userClient;
    },
  };
}

/**
 * Runs a click handler after the ack; whatever it throws (Paperspace refusing the clicker's key, a
 * machine that is gone) is told to the clicker alone, and the card stays as it was.
 */
export async function answeringFailures(click: MachineClick, handle: () => Promise<void>): Promise<void> {
  try {
    await handle();
  } catch (error) {
    await click.reply(errorMessage(failureText(error, click.deps.logger)));
  }
}
