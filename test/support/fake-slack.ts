// A stand-in for the Slack Web API, for response_urls and for Socket Mode: a real node:http server on
// port 0 that records every call and answers the way Slack does, so the bot under test talks HTTP (and
// WebSocket) exactly as in production.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFakeFunctions, type FakeFunctions } from './fake-slack-functions.js';
import { createFakeSlackOAuth, type FakeSlackOAuth } from './fake-slack-oauth.js';
import { createFakeSlackRules, type FakeSlackRule, type HttpRefusal } from './fake-slack-rules.js';
import { createFakeUnfurls, type FakeUnfurls } from './fake-slack-unfurls.js';
import { createFakeSocketMode, type FakeSocketMode } from './fake-socket-mode.js';

/** One Web API call as the bot made it. */
export interface ApiCall {
  /** Web API method, e.g. `chat.postMessage`. */
  method: string;
  /**
   * Arguments as sent. Form-encoded values stay strings except the JSON-valued ones (blocks, attachments,
   * view, metadata ...), which are parsed back, so `args.blocks` is an array whichever encoding was used.
   */
  args: Record<string, unknown>;
  /** Token from `Authorization: Bearer` (or a `token` argument); undefined when none was sent. */
  token: string | undefined;
  contentType: string;
  /** `Authorization: Basic` credentials (oauth.v2.access takes the client id and secret either way). */
  basicAuth?: string;
  /** What the fake answered, so a test can tell an accepted call from a refused one. */
  answer?: Record<string, unknown> & { ok: boolean };
}

/** One POST to a response_url, i.e. what `respond()` sent. */
export interface ResponseUrlPost {
  response_type?: 'ephemeral' | 'in_channel';
  replace_original?: boolean;
  delete_original?: boolean;
  text?: string;
  blocks?: unknown[];
  thread_ts?: string;
  [key: string]: unknown;
}

interface FakeUser {
  id: string;
  real_name: string;
  /** The profile e-mail (users:read.email); absent: the profile shows none, as for a bot. */
  email: string;
  tz: string;
  tz_offset: number;
  is_bot: boolean;
  /** A workspace admin (Slack's users.info `is_admin`); an owner is one too, as Slack answers. */
  is_admin: boolean;
  /** A workspace owner (`is_owner`); the primary owner is `is_primary_owner` as well. */
  is_owner: boolean;
  is_primary_owner: boolean;
}

export interface FakeSlackOptions {
  teamId?: string;
  botUserId?: string;
  botId?: string;
  /** When set, a call with any other token gets `invalid_auth`; otherwise any token is accepted. */
  botToken?: string;
  users?: Array<Partial<FakeUser> & { id: string }>;
  /**
   * The app is distributed by OAuth with these credentials: oauth.v2.access issues tokens, and every
   * other call needs one of them (or `botToken`) not revoked: `invalid_auth` or `token_revoked` otherwise.
   */
  oauth?: { clientId: string; clientSecret: string };
  /** Told of each POST a response_url took, as it lands (the benchmarks stamp arrivals with it). */
  onResponseUrlPost?: (id: string) => void;
}

interface WaitOptions {
  /** How long to poll before failing with a dump of what was recorded. Default 2000 ms. */
  timeoutMs?: number;
}

export interface FakeSlack {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The value for SLACK_API_URL / slackApiUrl: `${url}/api/`. */
  apiUrl: string;
  teamId: string;
  botUserId: string;
  botId: string;
  /** Recorded Web API calls, oldest first, optionally only those of one method. */
  calls(method?: string): ApiCall[];
  /**
   * The recorded calls of every method from the `start`-th on: a reader following a long run (a
   * benchmark's 10,000 completions) reads only what is new, not the whole record each time.
   */
  callsSince(start: number): ApiCall[];
  /** Resolves with the first recorded call that matches (a method name or a predicate), polling until then. */
  waitFor(match: string | ((call: ApiCall) => boolean), options?: WaitOptions): Promise<ApiCall>;
  /** A response_url on this server; POSTs to it are recorded under `id`. */
  responseUrl(id: string): string;
  /** What was posted to responseUrl(id), oldest first. */
  responses(id: string): ResponseUrlPost[];
  /** Every response_url post so far, whatever its id (for scans over everything the bot said). */
  allResponses(): ResponseUrlPost[];
  /** Resolves with the `count`-th POST to responseUrl(id) (default the first), polling until then. */
  waitForResponse(id: string, options?: WaitOptions & { count?: number }): Promise<ResponseUrlPost>;
  /** Socket Mode: apps.connections.open points the app here; deliver envelopes and read its acks. */
  socketMode: FakeSocketMode;
  /** The install flow (with `options.oauth`): approve an install, read and revoke issued tokens. */
  oauth: FakeSlackOAuth;
  /** Workflow Builder's custom steps: start a run (the function_executed event) and see how it ended. */
  functions: Pick<FakeFunctions, 'execute' | 'execution'>;
  /** Link unfurling: a message with links posted (the link_shared event); chat.unfurl answers for it. */
  unfurls: Pick<FakeUnfurls, 'share'>;
  /**
   * Lets through, until the next reset, what Slack refuses under `rule` (fake-slack-rules.ts). Only for
   * a test about something else that cannot keep to the rule yet; `reason` says why.
   */
  relax(rule: FakeSlackRule, reason: string): void;
  /** A trigger_id as Slack sends one with a click or a command: it opens one view within 3 s. */
  issueTrigger(): string;
  /** A message that is in Slack without the bot having posted it here (the one a click came from). */
  showMessage(channel: string, ts: string, options?: { ephemeral?: boolean }): void;
  /** A view Slack shows the person (the one a click or a submission came from), with its hash. */
  showView(view: { id: string; hash: string; external_id?: string }): void;
  /** Who is in a channel, for ephemeral messages; until set, everyone is (and a DM holds its person). */
  setMembers(channel: string, userIds: string[]): void;
  /** Sets what users.info answers for one user (others get defaults: UTC, not a bot, not an admin). */
  setUser(user: Partial<FakeUser> & { id: string }): void;
  /** The next `times` calls to `method` answer `{ ok: false, error }`, as Slack does for that failure. */
  fail(method: string, error: string, options?: { times?: number }): void;
  /**
   * Scripts how the next matching calls to `method` (a Web API method, or `response_url`) are answered:
   * any Slack error code, any HTTP status (429 with Retry-After), a delay, or no answer at all. Scripts
   * are matched in the order they were added; each is used `times` times (default 1).
   */
  script(method: string, answer: ScriptedAnswer): void;
  /**
   * Back to the state after start: forgets calls, responses and injected failures; users are those of the
   * options again. Message timestamps keep increasing, so a ts is never handed out twice.
   */
  reset(): void;
  close(): Promise<void>;
}

/** How one scripted call is answered; the fields combine (a delay, then an error or a status). */
interface ScriptedAnswer {
  /** Only calls to this channel (the `channel` argument as sent, or the response_url id). */
  channel?: string;
  /** How many matching calls this applies to. Default 1; Infinity for every one. */
  times?: number;
  /** Waits this long before answering (the call is recorded, and takes effect, at once). */
  delayMs?: number;
  /** Never answers; the connection stays open until the client gives up or the fake closes. */
  hang?: boolean;
  /** Answers HTTP 200 `{ ok: false, error }`, as Slack does for a refused call. */
  error?: string;
  /** Answers with this HTTP status instead (429, 500, 503 ...). */
  status?: number;
  /** With a status of 429: the Retry-After header, in seconds. */
  retryAfterSeconds?: number;
}

type SlackAnswer = Record<string, unknown> & { ok: boolean };
type MethodHandler = (call: ApiCall) => SlackAnswer;

// Values the Web API client JSON-encodes inside form bodies; every other form value stays a string.
const JSON_ARGS = new Set(['blocks', 'attachments', 'view', 'metadata', 'unfurls', 'user_auth_blocks']);
const POLL_INTERVAL_MS = 10;
const DEFAULT_TIMEOUT_MS = 2000;
// A fixed epoch keeps message timestamps deterministic; the counter makes them unique and increasing.
const TS_EPOCH_SECONDS = 1_700_000_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseBody(raw: string, contentType: string): Record<string, unknown> {
  if (raw === '') return {};
  if (contentType.startsWith('application/json')) {
    const parsed: unknown = JSON.parse(raw);
    return isRecord(parsed) ? parsed : { value: parsed };
  }
  const args: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    args[key] = JSON_ARGS.has(key) ? parseJsonOrKeep(value) : value;
  }
  return args;
}

function parseJsonOrKeep(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

function sendRefusal(response: ServerResponse, refusal: HttpRefusal): void {
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (refusal.retryAfterSeconds !== undefined) headers['retry-after'] = String(refusal.retryAfterSeconds);
  response.writeHead(refusal.status, headers);
  response.end(JSON.stringify(refusal.body));
}

function stringArg(call: ApiCall, name: string): string | undefined {
  const value = call.args[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function slackError(error: string, messages?: string[]): SlackAnswer {
  return messages ? { ok: false, error, response_metadata: { messages } } : { ok: false, error };
}

/**
 * Slack refuses a view whose number input starts outside its own bounds (an initial_value 0 with a
 * min_value 1), so a modal built that way never opens.
 */
function numberInputOutOfBounds(blocks: unknown, pointer: string): string[] | undefined {
  if (!Array.isArray(blocks)) return undefined;
  const errors: string[] = [];
  blocks.forEach((block: unknown, index) => {
    if (!isRecord(block) || !isRecord(block.element) || block.element.type !== 'number_input') return;
    const { initial_value: initial, min_value: min, max_value: max } = block.element;
    if (typeof initial !== 'string') return;
    const value = Number(initial);
    if (
      (typeof min === 'string' && value < Number(min)) ||
      (typeof max === 'string' && value > Number(max))
    ) {
      errors.push(
        `[ERROR] initial_value must be between min_value and max_value [json-pointer:${pointer}/${index}/element]`,
      );
    }
  });
  return errors.length > 0 ? errors : undefined;
}

function describeRecorded(calls: ApiCall[], responses: Map<string, ResponseUrlPost[]>): string {
  // A token sent as an argument (auth.test does) stays out of test output.
  const lines = calls.map((call) => `  ${call.method} ${JSON.stringify({ ...call.args, token: undefined })}`);
  for (const [id, posts] of responses) {
    for (const post of posts) lines.push(`  response_url ${id} ${JSON.stringify(post)}`);
  }
  return lines.length > 0 ? lines.join('\n') : '  (nothing)';
}

async function poll<T>(
  probe: () => T | undefined,
  timeoutMs: number,
  describeTimeout: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() >= deadline) throw new Error(describeTimeout());
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const teamId = options.teamId ?? 'T0FAKE';
  const botUserId = options.botUserId ?? 'U0BOT';
  const botId = options.botId ?? 'B0BOT';

  let recorded: ApiCall[] = [];
  let responsePosts = new Map<string, ResponseUrlPost[]>();
  let scripts: Array<ScriptedAnswer & { method: string; remaining: number }> = [];
  let users = new Map<string, Partial<FakeUser> & { id: string }>();
  let messageCount = 0;
  let viewCount = 0;
  const rules = createFakeSlackRules();

  const setUser = (user: Partial<FakeUser> & { id: string }): void => {
    users.set(user.id, { ...users.get(user.id), ...user });
  };
  for (const user of options.users ?? []) setUser(user);

  const nextTs = (): string => {
    messageCount += 1;
    return `${TS_EPOCH_SECONDS + messageCount}.000100`;
  };
  // Posting to a user id lands in the app's DM with that user, as on Slack.
  const dmChannelFor = (userId: string): string => `D${userId.slice(1)}`;
  const resolveChannel = (channel: string): string =>
    /^[UW]/.test(channel) ? dmChannelFor(channel) : channel;

  const renderView = (view: unknown, extra: Record<string, unknown>): Record<string, unknown> => {
    viewCount += 1;
    const id = `V${String(viewCount).padStart(8, '0')}`;
    const rendered: Record<string, unknown> = {
      id,
      team_id: teamId,
      app_id: 'A0FAKE',
      bot_id: botId,
      private_metadata: '',
      callback_id: '',
      external_id: '',
      state: { values: {} },
      hash: `${TS_EPOCH_SECONDS}.${id}`,
      root_view_id: id,
      previous_view_id: null,
      ...(isRecord(view) ? view : {}),
      ...extra,
    };
    rules.viewShown({
      id: String(rendered.id),
      hash: String(rendered.hash),
      external_id: typeof rendered.external_id === 'string' ? rendered.external_id : '',
    });
    return rendered;
  };

  const socketMode = createFakeSocketMode('A0FAKE');
  const oauth = createFakeSlackOAuth(options.oauth ?? { clientId: '', clientSecret: '' }, 'A0FAKE');
  const defaultIdentity = {
    ok: true,
    url: 'https://fake-team.slack.com/',
    team: 'Fake Team',
    user: 'paperspace-bot',
    team_id: teamId,
    user_id: botUserId,
    bot_id: botId,
    is_enterprise_install: false,
  };
  // Known once the server listens, before any call can arrive.
  let socketModeUrl = '';

  const functions = createFakeFunctions('A0FAKE');
  // An unfurl's blocks are refused as a message's would be, by the same (relaxable) rules.
  const unfurls = createFakeUnfurls(
    () => nextTs(),
    (blocks) => rules.messageRefusal({ blocks }),
  );

  const viewRefusal = (view: Record<string, unknown>): SlackAnswer | undefined => {
    const problems = numberInputOutOfBounds(view.blocks, '/view/blocks');
    return problems ? slackError('invalid_arguments', problems) : rules.viewRefusal(view);
  };
  /** views.open and views.push: each spends a trigger_id. */
  const openModal = (call: ApiCall): SlackAnswer => {
    if (!isRecord(call.args.view)) return slackError('invalid_arguments');
    const refusal = rules.useTrigger(stringArg(call, 'trigger_id')) ?? viewRefusal(call.args.view);
    if (refusal) return refusal;
    return { ok: true, view: renderView(call.args.view, {}) };
  };

  const handlers: Record<string, MethodHandler> = {
    ...functions.handlers,
    ...unfurls.handlers,
    'apps.connections.open': () => ({ ok: true, url: socketModeUrl }),
    'auth.test': (call) => {
      const installed = options.oauth && call.token ? oauth.check(call.token) : undefined;
      if (installed?.ok && installed.issued) {
        const { issued } = installed;
        return {
          ok: true,
          url: `https://${(issued.team ?? issued.enterprise)?.name.toLowerCase().replace(/\W+/g, '-')}.slack.com/`,
          team: issued.team?.name ?? issued.enterprise?.name,
          user: 'paperspace-bot',
          team_id: issued.team?.id ?? issued.enterprise?.id,
          ...(issued.enterprise ? { enterprise_id: issued.enterprise.id } : {}),
          user_id: issued.botUserId,
          bot_id: `B${issued.botUserId.slice(1)}`,
          is_enterprise_install: issued.isEnterpriseInstall === true,
        };
      }
      return defaultIdentity;
    },
    'chat.postMessage': (call) => {
      const channel = stringArg(call, 'channel');
      if (!channel) return slackError('channel_not_found');
      if (
        call.args.text === undefined &&
        call.args.blocks === undefined &&
        call.args.attachments === undefined
      ) {
        return slackError('no_text');
      }
      const refusal = rules.messageRefusal(call.args);
      if (refusal) return refusal;
      const ts = nextTs();
      rules.messageShown(resolveChannel(channel), ts);
      return {
        ok: true,
        channel: resolveChannel(channel),
        ts,
        message: {
          type: 'message',
          user: botUserId,
          bot_id: botId,
          text: call.args.text ?? '',
          blocks: call.args.blocks,
          thread_ts: call.args.thread_ts,
          ts,
        },
      };
    },
    'chat.update': (call) => {
      const channel = stringArg(call, 'channel');
      const ts = stringArg(call, 'ts');
      if (!channel) return slackError('channel_not_found');
      if (!ts) return slackError('message_not_found');
      const refusal = rules.changeRefusal(channel, ts) ?? rules.messageRefusal(call.args);
      if (refusal) return refusal;
      return { ok: true, channel, ts, text: call.args.text ?? '', message: { text: call.args.text ?? '' } };
    },
    'chat.delete': (call) => {
      const channel = stringArg(call, 'channel');
      const ts = stringArg(call, 'ts');
      if (!channel) return slackError('channel_not_found');
      if (!ts) return slackError('message_not_found');
      const refusal = rules.changeRefusal(channel, ts);
      if (refusal) return refusal;
      return { ok: true, channel, ts };
    },
    'chat.postEphemeral': (call) => {
      const channel = stringArg(call, 'channel');
      const user = stringArg(call, 'user');
      if (!channel) return slackError('channel_not_found');
      if (!user) return slackError('user_not_in_channel');
      const refusal = rules.ephemeralRefusal(channel, user) ?? rules.messageRefusal(call.args);
      if (refusal) return refusal;
      const ts = nextTs();
      rules.messageShown(channel, ts, true);
      return { ok: true, message_ts: ts };
    },
    'views.open': (call) => openModal(call),
    'views.push': (call) => openModal(call),
    'views.update': (call) => {
      const viewId = stringArg(call, 'view_id');
      const externalId = stringArg(call, 'external_id');
      if (!viewId && !externalId) return slackError('invalid_arguments');
      if (!isRecord(call.args.view)) return slackError('invalid_arguments');
      const refusal = viewRefusal(call.args.view);
      if (refusal) return refusal;
      const target = rules.viewUpdate({ viewId, externalId }, stringArg(call, 'hash'));
      if (!('id' in target)) return target;
      return { ok: true, view: renderView(call.args.view, { id: target.id }) };
    },
    'views.publish': (call) => {
      if (!stringArg(call, 'user_id')) return slackError('invalid_arguments');
      if (!isRecord(call.args.view)) return slackError('invalid_arguments');
      const refusal = viewRefusal(call.args.view);
      if (refusal) return refusal;
      return { ok: true, view: renderView(call.args.view, {}) };
    },
    'users.info': (call) => {
      const userId = stringArg(call, 'user');
      if (!userId) return slackError('user_not_found');
      const configured = users.get(userId);
      const realName = configured?.real_name ?? `User ${userId}`;
      return {
        ok: true,
        user: {
          id: userId,
          team_id: teamId,
          name: realName.toLowerCase().replace(/\s+/g, '.'),
          real_name: realName,
          deleted: false,
          tz: configured?.tz ?? 'UTC',
          tz_label: configured?.tz ?? 'UTC',
          tz_offset: configured?.tz_offset ?? 0,
          is_bot: configured?.is_bot ?? false,
          // Slack marks an owner as an admin too (a primary owner is both an owner and an admin).
          is_admin: Boolean(configured?.is_admin || configured?.is_owner || configured?.is_primary_owner),
          is_owner: Boolean(configured?.is_owner || configured?.is_primary_owner),
          is_primary_owner: configured?.is_primary_owner ?? false,
          is_restricted: false,
          is_ultra_restricted: false,
          profile: {
            real_name: realName,
            display_name: realName,
            ...(configured?.email === undefined ? {} : { email: configured.email }),
          },
        },
      };
    },
    'conversations.open': (call) => {
      const userIds = stringArg(call, 'users');
      const channel = stringArg(call, 'channel');
      if (channel) return { ok: true, channel: { id: channel } };
      const first = userIds?.split(',')[0];
      if (!first) return slackError('users_list_not_supplied');
      return { ok: true, channel: { id: dmChannelFor(first) } };
    },
  };

  /** Why Slack refuses `token`, or undefined when it takes it. */
  const tokenRefusal = (token: string): string | undefined => {
    // A step's run hands the app a workflow token (xwfp-) that Slack accepts beside the bot token.
    if (functions.isWorkflowToken(token) || token === options.botToken) return undefined;
    if (options.oauth) {
      const checked = oauth.check(token);
      return checked.ok ? undefined : checked.error;
    }
    return options.botToken === undefined ? undefined : 'invalid_auth';
  };

  const answerApiCall = (call: ApiCall): SlackAnswer | HttpRefusal => {
    // The one method called before there is a token: it is how a token is obtained.
    if (options.oauth && call.method === 'oauth.v2.access') return oauth.access(call.args, call.basicAuth);
    if (call.token === undefined) return slackError('not_authed');
    const refusal = tokenRefusal(call.token);
    if (refusal !== undefined) return slackError(refusal);
    const channel = stringArg(call, 'channel');
    if (call.method === 'chat.postMessage' && channel !== undefined) {
      const limited = rules.pace(resolveChannel(channel));
      if (limited) return limited;
    }
    // Tier 3 counts per app per workspace: a bot token is the app in one workspace.
    if (call.method === 'chat.update') {
      const limited = rules.updatePace(call.token);
      if (limited) return limited;
    }
    const handler = handlers[call.method];
    return handler ? handler(call) : slackError('unknown_method');
  };

  const takeScript = (method: string, channel: string | undefined): ScriptedAnswer | undefined => {
    const script = scripts.find(
      (candidate) =>
        candidate.method === method && (candidate.channel === undefined || candidate.channel === channel),
    );
    if (script === undefined) return undefined;
    script.remaining -= 1;
    if (script.remaining <= 0) scripts = scripts.filter((candidate) => candidate !== script);
    return script;
  };

  /** Answers as scripted; false when the script only delayed and the normal answer should follow. */
  const answerScripted = async (response: ServerResponse, scripted: ScriptedAnswer): Promise<boolean> => {
    if (scripted.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
    if (scripted.hang) return true;
    if (scripted.status !== undefined) {
      const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
      if (scripted.retryAfterSeconds !== undefined)
        headers['retry-after'] = String(scripted.retryAfterSeconds);
      response.writeHead(scripted.status, headers);
      response.end(JSON.stringify(slackError(scripted.status === 429 ? 'ratelimited' : 'fatal_error')));
      return true;
    }
    if (scripted.error !== undefined) {
      sendJson(response, 200, slackError(scripted.error));
      return true;
    }
    return false;
  };

  /** A response_url takes 5 posts in 30 minutes, each a message Slack would take (or a deletion). */
  const responseUrlRefusal = (id: string, body: Record<string, unknown>): HttpRefusal | undefined => {
    const used = rules.useResponseUrl(id);
    if (used) return used;
    if (body.delete_original === true) return undefined;
    const refusal = rules.messageRefusal(body);
    return refusal ? { status: 400, body: refusal } : undefined;
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const contentType = request.headers['content-type'] ?? '';
      const raw = await readBody(request);
      let args: Record<string, unknown>;
      try {
        args = parseBody(raw, contentType);
      } catch {
        sendJson(response, 200, slackError('invalid_json'));
        return;
      }

      const responseUrlMatch = /^\/response-url\/([^/]+)$/.exec(url.pathname);
      if (responseUrlMatch?.[1] !== undefined && request.method === 'POST') {
        const id = decodeURIComponent(responseUrlMatch[1]);
        const scripted = takeScript('response_url', id);
        const posts = responsePosts.get(id) ?? [];
        // A refused response_url post did not land; a delayed or hung one did.
        if (scripted?.error === undefined && scripted?.status === undefined) {
          const refusal = responseUrlRefusal(id, args);
          if (refusal) {
            sendRefusal(response, refusal);
            return;
          }
          posts.push(args as ResponseUrlPost);
          responsePosts.set(id, posts);
          options.onResponseUrlPost?.(id);
        }
        if (scripted && (await answerScripted(response, scripted))) return;
        sendJson(response, 200, { ok: true });
        return;
      }

      const apiMatch = /^\/api\/([^/]+)$/.exec(url.pathname);
      if (apiMatch?.[1] === undefined) {
        response.writeHead(404).end();
        return;
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const bodyToken = typeof args.token === 'string' ? args.token : undefined;
      const basicAuth = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const call: ApiCall = {
        method: apiMatch[1],
        args,
        token: bearer ?? bodyToken,
        contentType,
        ...(basicAuth === undefined ? {} : { basicAuth }),
      };
      recorded.push(call);
      const channel = typeof args.channel === 'string' ? args.channel : undefined;
      const scripted = call.token === undefined ? undefined : takeScript(call.method, channel);
      // Refused calls change nothing; a delayed or hung call takes effect, as a slow Slack's would.
      const answer =
        scripted?.error === undefined && scripted?.status === undefined ? answerApiCall(call) : undefined;
      if (answer !== undefined) call.answer = 'ok' in answer ? answer : answer.body;
      if (scripted && (await answerScripted(response, scripted))) return;
      if (answer !== undefined && !('ok' in answer)) {
        sendRefusal(response, answer);
        return;
      }
      call.answer ??= answerApiCall(call) as SlackAnswer;
      sendJson(response, 200, call.answer);
    })().catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { ok: false, error: String(error) });
    });
  });

  server.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname === socketMode.path) {
      socketMode.upgrade(request, socket, head);
    } else {
      socket.destroy();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Slack takes any number of connections; Node's default backlog (511) would drop some of a burst's.
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  socketModeUrl = `ws://127.0.0.1:${port}${socketMode.path}`;

  const calls = (method?: string): ApiCall[] =>
    method === undefined ? [...recorded] : recorded.filter((call) => call.method === method);

  return {
    url,
    apiUrl: `${url}/api/`,
    callsSince: (start) => recorded.slice(start),
    teamId,
    botUserId,
    botId,
    calls,
    waitFor(match, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
      const predicate = typeof match === 'string' ? (call: ApiCall) => call.method === match : match;
      const what = typeof match === 'string' ? `${match} call` : 'matching call';
      return poll(
        () => recorded.find(predicate),
        timeoutMs,
        () =>
          `fake Slack: no ${what} within ${timeoutMs} ms. Recorded:\n${describeRecorded(recorded, responsePosts)}`,
      );
    },
    responseUrl: (id) => {
      rules.responseUrlIssued(id);
      return `${url}/response-url/${encodeURIComponent(id)}`;
    },
    responses: (id) => [...(responsePosts.get(id) ?? [])],
    allResponses: () => [...responsePosts.values()].flat(),
    waitForResponse(id, { timeoutMs = DEFAULT_TIMEOUT_MS, count = 1 } = {}) {
      return poll(
        () => responsePosts.get(id)?.[count - 1],
        timeoutMs,
        () =>
          `fake Slack: response_url ${id} did not receive POST #${count} within ${timeoutMs} ms. Recorded:\n` +
          describeRecorded(recorded, responsePosts),
      );
    },
    socketMode,
    oauth: oauth.api,
    functions,
    unfurls,
    setUser,
    relax: (rule, reason) => rules.relax(rule, reason),
    issueTrigger: () => rules.issueTrigger(),
    showMessage: (channel, ts, { ephemeral = false } = {}) => rules.messageShown(channel, ts, ephemeral),
    showView: (view) => rules.viewShown(view),
    setMembers: (channel, userIds) => rules.setMembers(channel, userIds),
    fail(method, error, { times = 1 } = {}) {
      scripts.push({ method, error, times, remaining: times });
    },
    script(method, answer) {
      const times = answer.times ?? 1;
      scripts.push({ ...answer, method, times, remaining: times });
    },
    reset() {
      recorded = [];
      responsePosts = new Map();
      scripts = [];
      rules.restore();
      rules.resetPace();
      users = new Map();
      for (const user of options.users ?? []) setUser(user);
    },
    close() {
      socketMode.close();
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
