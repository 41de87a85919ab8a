// The part of Slack the bot talks to: the Web API methods it calls (at SLACK_API_URL, `/api/<method>`)
// and the response_urls it answers through (`/response-url/<id>`). Each method changes the sandbox
// workspace as Slack would change the real one, and refuses what Slack refuses, with Slack's error
// names, so the bot's error handling meets the same answers it will meet in production.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { blockTextLength } from '../../src/slack/block-kit/message-budget.js';
import { MAX_BLOCK_TEXT, messageProblems, viewProblems, withSlackIds } from './block-kit-rules.js';
import { createChannelPace, createUpdatePace } from './channel-pace.js';
import type { Grants } from './grants.js';
import { BodyTooLargeError, isRecord, readBody, sendJson } from './http-util.js';
import type { FakeUnfurls } from './link-unfurls.js';
import { SANDBOX_APP, SANDBOX_TEAM } from './sandbox-identity.js';
import { timeZoneOffsetSeconds } from './time-zone.js';
import { toSlackView, type ViewStacks } from './view-stacks.js';
import type { FakeFunctions } from './workflow-functions.js';
import { type Author, type MessageContent, toSlackMessage, type Workspace } from './workspace.js';

type Json = Record<string, unknown>;
type Answer = Json & { ok: boolean };

export const API_PATH_PREFIX = '/api/';
export const RESPONSE_URL_PATH_PREFIX = '/response-url/';

// Values the Web API client JSON-encodes inside form bodies; every other form value stays a string.
const JSON_ARGS = new Set(['blocks', 'attachments', 'view', 'metadata', 'unfurls', 'user_auth_blocks']);
const BOT: Author = { kind: 'bot' };

export interface SlackStandinOptions {
  workspace: Workspace;
  views: ViewStacks;
  grants: Grants;
  /** The bot's token; the Web API takes it and the workflow token of a step's run. */
  botToken: string;
  /** Step runs (workflow-runs.ts): functions.completeSuccess and completeError, and their tokens. */
  functions: FakeFunctions;
  /** Told after Slack took a run's completion. */
  onRunEnded: (executionId: string) => void;
  /** Shared links (link-sharing.ts): chat.unfurl, for the links of a message the app was told of. */
  unfurls: FakeUnfurls;
  /** Told after Slack took a chat.unfurl call, with its unfurls as Slack stores them. */
  onUnfurled: (args: Json, unfurls: Record<string, { blocks: unknown[] }>) => void;
  logger: Logger;
  now: () => number;
}

export interface SlackStandin {
  /** Answers one Web API call as Slack would. */
  call(method: string, args: Json, token: string | undefined): Answer;
  /** Applies one POST to a response_url; the HTTP status and body Slack would answer. */
  respond(id: string, body: Json): { status: number; body: Answer };
  /** Serves `/api/*` and `/response-url/*`; false when the path is not one of them. */
  handle(request: IncomingMessage, response: ServerResponse, path: string): Promise<boolean>;
}

const fail = (error: string, messages?: string[]): Answer =>
  messages && messages.length > 0
    ? { ok: false, error, response_metadata: { messages } }
    : { ok: false, error };

function stringArg(args: Json, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The message parts of chat.postMessage/update/postEphemeral and response_url bodies. */
function content(args: Json): MessageContent | Answer {
  const problems = messageProblems(args);
  if (problems.length > 0) return fail('invalid_blocks', problems);
  if (blockTextLength(args.blocks) > MAX_BLOCK_TEXT) return fail('msg_blocks_too_long');
  const blocks = Array.isArray(args.blocks) ? args.blocks : [];
  const text = typeof args.text === 'string' ? args.text : '';
  if (text === '' && blocks.length === 0) return fail('no_text');
  // Stored as Slack stores them: every block gets a block_id and every element an action_id.
  return { text, blocks: withSlackIds(blocks) };
}

const isAnswer = (value: MessageContent | Answer): value is Answer => 'ok' in value;

export function createSlackStandin(options: SlackStandinOptions): SlackStandin {
  const { workspace, views, grants, logger } = options;
  const pace = createChannelPace(options.now);
  // The stand-in is one workspace: its chat.update budget is the app's there.
  const updatePace = createUpdatePace(options.now);

  /** Where the app may post: a channel it is in, a public one (chat:write.public), or a person's DM. */
  const postable = (channelArg: string | undefined) => {
    const channel = channelArg === undefined ? undefined : workspace.conversation(channelArg);
    if (channel === undefined || (channel.kind === 'private' && !channel.botIsMember)) return undefined;
    return channel;
  };

  const viewAnswer = (result: ReturnType<ViewStacks['open']> | ReturnType<ViewStacks['push']>): Answer =>
    typeof result === 'string' ? fail(result) : { ok: true, view: toSlackView(result) };

  const checkedView = (args: Json): Json | Answer => {
    const problems = viewProblems(args.view);
    if (problems.length > 0 || !isRecord(args.view)) return fail('invalid_arguments', problems);
    return args.view;
  };
  const isViewAnswer = (value: Json | Answer): value is Answer => value.ok === false;

  /** views.open and views.push: both spend a trigger_id and take only a modal. */
  const withTriggeredModal = (
    args: Json,
    place: (userId: string, view: Json) => ReturnType<ViewStacks['open']> | ReturnType<ViewStacks['push']>,
  ): Answer => {
    const trigger = grants.useTrigger(stringArg(args, 'trigger_id') ?? '');
    if ('error' in trigger) return fail(trigger.error);
    const view = checkedView(args);
    if (isViewAnswer(view)) return view;
    if (view.type !== 'modal')
      return fail('invalid_arguments', ['[ERROR] must be modal [json-pointer:/view/type]']);
    return viewAnswer(place(trigger.userId, view));
  };

  /** functions.complete*: the same rules as the fake Slack's, then the person who ran the step is told. */
  const stepMethods = Object.fromEntries(
    Object.entries(options.functions.handlers).map(([method, handler]) => [
      method,
      (args: Json): Answer => {
        const answer = handler({ args });
        if (answer.ok) options.onRunEnded(String(args.function_execution_id));
        return answer;
      },
    ]),
  );

  /**
   * chat.unfurl: the fake Slack's rules (a shared message, its URLs only, each unfurl's blocks held to
   * a message's rules), then the unfurls stored as Slack stores a message's blocks.
   */
  const unfurl = (args: Json): Answer => {
    const answer = options.unfurls.handlers['chat.unfurl']?.({ args }) ?? fail('unknown_method');
    if (!answer.ok) return answer;
    const stored: Record<string, { blocks: unknown[] }> = {};
    for (const [url, value] of Object.entries(isRecord(args.unfurls) ? args.unfurls : {})) {
      const blocks = isRecord(value) && Array.isArray(value.blocks) ? value.blocks : [];
      stored[url] = { blocks: withSlackIds(blocks) };
    }
    options.onUnfurled(args, stored);
    return answer;
  };

  const methods: Record<string, (args: Json) => Answer> = {
    ...stepMethods,
    'chat.unfurl': unfurl,
    'auth.test': () => ({
      ok: true,
      url: `https://${SANDBOX_TEAM.domain}.slack.com/`,
      team: SANDBOX_TEAM.name,
      user: SANDBOX_APP.handle,
      team_id: SANDBOX_TEAM.id,
      user_id: SANDBOX_APP.botUserId,
      bot_id: SANDBOX_APP.botId,
      is_enterprise_install: false,
    }),

    'chat.postMessage': (args) => {
      const channel = postable(stringArg(args, 'channel'));
      if (channel === undefined) return fail('channel_not_found');
      const message = content(args);
      if (isAnswer(message)) return message;
      const posted = workspace.post(channel.id, BOT, message, stringArg(args, 'thread_ts'));
      return { ok: true, channel: channel.id, ts: posted.ts, message: toSlackMessage(posted) };
    },

    'chat.update': (args) => {
      const channel = postable(stringArg(args, 'channel'));
      if (channel === undefined) return fail('channel_not_found');
      const ts = stringArg(args, 'ts');
      const existing = ts === undefined ? undefined : workspace.message(channel.id, ts);
      if (ts === undefined || existing === undefined) return fail('message_not_found');
      if (existing.author.kind !== 'bot') return fail('cant_update_message');
      // Slack keeps the blocks when an update leaves them out, and the text likewise.
      const message = content({
        text: args.text ?? existing.text,
        blocks: args.blocks ?? existing.blocks,
      });
      if (isAnswer(message)) return message;
      const updated = workspace.update(channel.id, ts, message);
      if (updated === undefined) return fail('message_not_found');
      return { ok: true, channel: channel.id, ts, text: updated.text, message: toSlackMessage(updated) };
    },

    'chat.postEphemeral': (args) => {
      const channel = postable(stringArg(args, 'channel'));
      if (channel === undefined) return fail('channel_not_found');
      const user = stringArg(args, 'user');
      if (user === undefined || !workspace.isMember(channel.id, user)) return fail('user_not_in_channel');
      const message = content(args);
      if (isAnswer(message)) return message;
      const posted = workspace.postEphemeral(channel.id, user, BOT, message, stringArg(args, 'thread_ts'));
      return { ok: true, message_ts: posted.ts };
    },

    'views.open': (args) => withTriggeredModal(args, (userId, view) => views.open(userId, view)),

    'views.push': (args) => withTriggeredModal(args, (userId, view) => views.push(userId, view)),

    'views.update': (args) => {
      const viewId = stringArg(args, 'view_id');
      const externalId = stringArg(args, 'external_id');
      if (viewId === undefined && externalId === undefined) return fail('invalid_arguments');
      const view = checkedView(args);
      if (isViewAnswer(view)) return view;
      const ref = viewId === undefined ? { externalId: externalId ?? '' } : { viewId };
      const result = views.update(ref, view, stringArg(args, 'hash'));
      return typeof result === 'string' ? fail(result) : { ok: true, view: toSlackView(result) };
    },

    'views.publish': (args) => {
      const userId = stringArg(args, 'user_id');
      if (userId === undefined || workspace.person(userId) === undefined) return fail('user_not_found');
      const view = checkedView(args);
      if (isViewAnswer(view)) return view;
      if (view.type !== 'home')
        return fail('invalid_arguments', ['[ERROR] must be home [json-pointer:/view/type]']);
      return { ok: true, view: toSlackView(views.publishHome(userId, view)) };
    },

    'users.info': (args) => {
      const userId = stringArg(args, 'user');
      const person = userId === undefined ? undefined : workspace.person(userId);
      const isBot = userId === SANDBOX_APP.botUserId;
      if (userId === undefined || (person === undefined && !isBot)) return fail('user_not_found');
      const realName = person?.realName ?? SANDBOX_APP.name;
      const tz = workspace.timeZone();
      return {
        ok: true,
        user: {
          id: userId,
          team_id: SANDBOX_TEAM.id,
          name: person?.handle ?? SANDBOX_APP.handle,
          real_name: realName,
          deleted: false,
          is_bot: isBot,
          is_admin: person?.workspaceAdmin ?? false,
          is_owner: false,
          tz,
          tz_label: tz,
          tz_offset: timeZoneOffsetSeconds(tz, options.now()),
          profile: {
            real_name: realName,
            display_name: person?.handle ?? SANDBOX_APP.handle,
            ...(person === undefined ? {} : { email: person.email }),
          },
        },
      };
    },

    'conversations.open': (args) => {
      const channel = stringArg(args, 'channel');
      if (channel !== undefined) {
        const found = postable(channel);
        return found ? { ok: true, channel: { id: found.id } } : fail('channel_not_found');
      }
      const users = stringArg(args, 'users')?.split(',') ?? [];
      if (users.length === 0) return fail('users_list_not_supplied');
      // Group DMs (several users) are not part of the sandbox: the bot only opens DMs with one person.
      if (users.length > 1) return fail('not_supported');
      const im = users[0] === undefined ? undefined : workspace.conversation(users[0]);
      if (im === undefined || im.kind !== 'im') return fail('user_not_found');
      return { ok: true, channel: { id: im.id } };
    },
  };

  /**
   * Slack's HTTP 429 for a post past the conversation's pace or an update past the workspace's Tier 3
   * budget (as the fake Slack answers them), or undefined: Slack rate limits before it looks at the message.
   */
  const rateLimited = (method: string, args: Json, token: string | undefined) => {
    if (token !== options.botToken) return undefined;
    let retryAfterSeconds: number | undefined;
    let channelId: string | undefined;
    if (method === 'chat.postMessage') {
      channelId = postable(stringArg(args, 'channel'))?.id;
      if (channelId === undefined) return undefined;
      retryAfterSeconds = pace.take(channelId);
    } else if (method === 'chat.update') {
      retryAfterSeconds = updatePace.take('workspace');
    }
    if (retryAfterSeconds === undefined) return undefined;
    logger.warn(
      { method, channel: channelId, error: 'ratelimited', retryAfterSeconds },
      'Slack stand-in refused a call',
    );
    return retryAfterSeconds;
  };

  const call = (method: string, args: Json, token: string | undefined): Answer => {
    if (token === undefined) return fail('not_authed');
    if (token !== options.botToken && !options.functions.isWorkflowToken(token)) return fail('invalid_auth');
    const handler = methods[method];
    if (handler === undefined) return fail('unknown_method');
    const answer = handler(args);
    if (answer.ok) logger.debug({ method }, 'Slack stand-in call');
    else
      logger.warn(
        { method, error: answer.error, problems: answer.response_metadata },
        'Slack stand-in refused a call',
      );
    return answer;
  };

  const respond = (id: string, body: Json): { status: number; body: Answer } => {
    const target = grants.useResponseUrl(id);
    if ('error' in target) return { status: 404, body: fail(target.error) };
    const { source } = target;
    if (body.delete_original === true) {
      if (source.kind === 'message') {
        if (source.ephemeral) workspace.deleteEphemeral(target.userId, source.ts);
        else workspace.delete(target.channel, source.ts);
      }
      return { status: 200, body: { ok: true } };
    }
    const message = content(body);
    if (isAnswer(message)) return { status: 400, body: message };
    if (body.replace_original === true && source.kind === 'message') {
      const replaced = source.ephemeral
        ? workspace.replaceEphemeral(target.userId, source.ts, message)
        : workspace.update(target.channel, source.ts, message);
      return replaced
        ? { status: 200, body: { ok: true } }
        : { status: 404, body: fail('message_not_found') };
    }
    const threadTs = stringArg(body, 'thread_ts');
    if (body.response_type === 'in_channel') workspace.post(target.channel, BOT, message, threadTs);
    else workspace.postEphemeral(target.channel, target.userId, BOT, message, threadTs);
    return { status: 200, body: { ok: true } };
  };

  const handle = async (
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
  ): Promise<boolean> => {
    const isApi = path.startsWith(API_PATH_PREFIX);
    if (!isApi && !path.startsWith(RESPONSE_URL_PATH_PREFIX)) return false;
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return true;
    }
    let raw: string;
    try {
      raw = await readBody(request);
    } catch (error) {
      sendJson(response, error instanceof BodyTooLargeError ? 413 : 400, fail('invalid_request'));
      return true;
    }
    const args = parseArgs(raw, request.headers['content-type'] ?? '');
    if (args === undefined) {
      sendJson(response, isApi ? 200 : 400, fail('invalid_json'));
      return true;
    }
    if (isApi) {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const token = bearer ?? (typeof args.token === 'string' ? args.token : undefined);
      const method = decodeURIComponent(path.slice(API_PATH_PREFIX.length));
      const retryAfter = rateLimited(method, args, token);
      if (retryAfter !== undefined) {
        response.setHeader('retry-after', String(retryAfter));
        sendJson(response, 429, fail('ratelimited'));
        return true;
      }
      sendJson(response, 200, call(method, args, token));
      return true;
    }
    const answer = respond(decodeURIComponent(path.slice(RESPONSE_URL_PATH_PREFIX.length)), args);
    sendJson(response, answer.status, answer.body);
    return true;
  };

  return { call, respond, handle };
}

/** Web API bodies come form-encoded (JSON-valued fields as JSON text) or as JSON; undefined if unreadable. */
function parseArgs(raw: string, contentType: string): Json | undefined {
  if (raw === '') return {};
  try {
    if (contentType.startsWith('application/json')) {
      const parsed: unknown = JSON.parse(raw);
      return isRecord(parsed) ? parsed : undefined;
    }
    const args: Json = {};
    for (const [key, value] of new URLSearchParams(raw)) {
      args[key] = JSON_ARGS.has(key) ? JSON.parse(value) : value;
    }
    return args;
  } catch {
    return undefined;
  }
}
