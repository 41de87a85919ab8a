// Who asked, where, and how to answer them: the context every command, button and modal handler
// receives, built once per request by one function here. Every action runs with the key of the person
// who typed or clicked, never with the key of whoever posted the message a button sits in.
import { randomUUID } from 'node:crypto';
import type {
  AllMiddlewareArgs,
  BlockAction,
  RespondArguments,
  RespondFn,
  SlackCommandMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { describeError } from '../errors/describe-error.js';
import { failureText } from '../errors/user-message.js';
import { requestIdOf } from '../observability/request-scope.js';
import type { PaperspaceClient } from '../paperspace/client.js';
import type { SlackUser } from '../store/slack-user.js';
import type { LinkedAccount } from '../vault/key-vault.js';
import { errorMessage, loginPrompt } from './block-kit/messages.js';
import type { SlackMessage } from './block-kit/text.js';
import { homeReplies } from './home-replies.js';
import type { PlatformDeps } from './platform-deps.js';
import { tellPrivately } from './posting.js';
import { slackPerson } from './slack-person.js';

export interface Interaction {
  /**
   * The platform's deps, with a logger that names this request (who, which surface). What a feature
   * keeps is not here: its listener has its own deps (inRequest gives them this request's logger).
   */
  deps: PlatformDeps;
  user: SlackUser;
  /** The conversation the request came from; undefined in App Home and in modals opened there. */
  channelId: string | undefined;
  /** Carried into Paperspace calls (X-Request-Id) and logs. */
  requestId: string;
  /** Bolt's Web API client for this request (the bot token). */
  web: WebClient;
  /**
   * Answers only this person: through the request's response_url when Slack sent one, otherwise
   * ephemerally in the conversation, in a modal over App Home for a click there, otherwise (a
   * conversation that refuses the bot, or a modal Slack would not open) in their DM with the app.
   */
  replyPrivately(message: SlackMessage): Promise<void>;
  /** Tells this person, privately and in one sentence, why what they asked for failed. */
  replyFailure(error: unknown): Promise<void>;
  /** Their own Paperspace client; when they have linked no key, shows them the login prompt and answers undefined. */
  userClient(): Promise<PaperspaceClient | undefined>;
  /** userClient() and the account its key belongs to, from one read of the vault (a list's buttons need both). */
  linkedClient(): Promise<{ client: PaperspaceClient; account: LinkedAccount } | undefined>;
}

interface InteractionSource {
  user: SlackUser;
  channelId: string | undefined;
  /** What this request's log lines say it is (its command, action or view id). */
  subject: Record<string, string | undefined>;
  web: WebClient;
  /** Bolt's respond(), when Slack sent a response_url with the request. */
  respond: RespondFn | undefined;
  /** The click's trigger when it came from App Home: answers open a modal over the Home. */
  homeTrigger?: string;
  boltContext: Record<string, unknown>;
}

function createInteraction(deps: PlatformDeps, source: InteractionSource): Interaction {
  const { user, channelId, web, respond } = source;
  // The bot's request scope gave this request its id; it already stamps the log lines and the
  // Paperspace calls. An app without that scope (a bare Bolt app in a test) gets an id of its own here.
  const scopedId = requestIdOf(source.boltContext);
  const requestId = scopedId ?? randomUUID();
  const logger = deps.logger.child({
    ...(scopedId === undefined ? { requestId } : {}),
    ...source.subject,
    user: user.userId,
  });
  const toConversation = async (message: SlackMessage) => {
    if (respond) {
      try {
        await respond({ response_type: 'ephemeral', replace_original: false, ...message });
        return;
      } catch (error) {
        // An expired or refused response_url (or one the bot will not follow) must not cost the answer.
        logger.warn(
          { error: describeError(error) },
          'the response_url refused an answer; telling the person directly',
        );
      }
    }
    await tellPrivately(web, { channel: channelId, userId: user.userId }, message, deps.pacer);
  };
  const replyPrivately =
    source.homeTrigger === undefined ? toConversation : homeReplies(web, source.homeTrigger, toConversation);
  const linkedClient = async () => {
    const linked = await deps.clients.linkedClient(user, { requestId });
    if (linked === undefined) await replyPrivately(loginPrompt());
    return linked;
  };
  return {
    deps: { ...deps, logger },
    user,
    channelId,
    requestId,
    web,
    replyPrivately,
    replyFailure: (error) => replyPrivately(errorMessage(failureText(error, logger))),
    userClient: async () => (await linkedClient())?.client,
    linkedClient,
  };
}

/**
 * A feature's `deps` with the logger of `interaction`, so what its services log while serving the
 * request names the request, as the platform's own lines do.
 */
export function inRequest<Deps extends { logger: PlatformDeps['logger'] }>(
  deps: Deps,
  interaction: { deps: Pick<PlatformDeps, 'logger'> },
): Deps {
  return { ...deps, logger: interaction.deps.logger };
}

/** Who clicked or submitted, keyed as on every surface (slack-person.ts). */
export function userOf(body: {
  user: { id: string; team_id?: string };
  team: { id: string } | null;
  enterprise?: { id: string } | null;
}): SlackUser {
  return slackPerson({
    userId: body.user.id,
    enterpriseId: body.enterprise?.id,
    userTeamId: body.user.team_id,
    teamId: body.team?.id,
  });
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function commandInteraction(
  deps: PlatformDeps,
  { command, respond, client, context }: SlackCommandMiddlewareArgs & AllMiddlewareArgs,
  name: string,
): Interaction {
  return createInteraction(deps, {
    user: slackPerson({
      userId: command.user_id,
      enterpriseId: command.enterprise_id,
      teamId: command.team_id,
    }),
    channelId: command.channel_id,
    subject: { command: name },
    web: client,
    respond,
    boltContext: context,
  });
}

/**
 * A call from Slackbot's MCP client (slack/mcp/): there is no conversation and no response_url, so
 * whatever the operation answers the person alone is the tool's result (`answer`), and what it posts
 * in the person's conversation lands in their DM with the app.
 */
export function slackbotInteraction(
  deps: PlatformDeps,
  source: { user: SlackUser; web: WebClient; tool: string; answer: (message: SlackMessage) => void },
): Interaction & { respond: RespondFn } {
  const answer = async (message: SlackMessage) => source.answer(message);
  // Only a message with words and blocks is answered through respond() here (the login prompt).
  const respond = async (reply: string | RespondArguments) => {
    const blocks = typeof reply === 'object' && 'blocks' in reply ? reply.blocks : undefined;
    source.answer({
      text: typeof reply === 'string' ? reply : (reply.text ?? ''),
      blocks: (blocks ?? []) as SlackMessage['blocks'],
    });
    // Bolt's respond() answers with the response_url's reply, which no caller reads.
    return {} as Awaited<ReturnType<RespondFn>>;
  };
  const interaction = createInteraction(deps, {
    user: source.user,
    channelId: source.user.userId,
    subject: { tool: source.tool },
    web: source.web,
    // Every private answer, the login prompt included, becomes the result rather than a Slack message.
    respond,
    boltContext: {},
  });
  return {
    ...interaction,
    respond,
    replyPrivately: answer,
    replyFailure: (error) => answer(errorMessage(failureText(error, interaction.deps.logger))),
  };
}

export interface ActionRequest {
  body: BlockAction;
  respond: RespondFn;
  client: WebClient;
  context: Record<string, unknown>;
}

export function actionInteraction(
  deps: PlatformDeps,
  { body, respond, client, context }: ActionRequest,
): Interaction {
  return createInteraction(deps, {
    user: userOf(body),
    channelId: body.channel?.id ?? nonEmpty(body.container.channel_id),
    subject: { action: body.actions[0]?.action_id },
    web: client,
    // Bolt offers respond() only when Slack sent a response_url (not from App Home).
    respond: nonEmpty(body.response_url) === undefined ? undefined : respond,
    ...(body.view?.type === 'home' && nonEmpty(body.trigger_id) ? { homeTrigger: body.trigger_id } : {}),
    boltContext: context,
  });
}

export interface ViewRequest {
  body: ViewSubmitAction;
  client: WebClient;
  context: Record<string, unknown>;
}

/**
 * A modal's submission has no conversation and no response_url of its own: `channelId` is where the
 * modal was opened from (its private_metadata says), so answers go there ephemerally, or to the DM.
 */
export function viewInteraction(
  deps: PlatformDeps,
  { body, client, context }: ViewRequest,
  channelId: string | undefined,
): Interaction {
  return createInteraction(deps, {
    user: userOf(body),
    channelId,
    subject: { view: body.view.callback_id },
    web: client,
    respond: undefined,
    boltContext: context,
  });
}
