// Requests exactly as Slack sends them to POST /slack/events: slash commands as form posts, interactions as a
// form field `payload=<json>`, events as JSON; each signed with the app's signing secret
// (X-Slack-Signature = v0=HMAC-SHA256(secret, `v0:${timestamp}:${body}`)). Payload shapes follow Slack's and
// are typed with Bolt's own payload types, so a missing field is a compile error here, not a surprise later.

import { createHmac } from 'node:crypto';
import type {
  BlockAction,
  BlockElementAction,
  SlashCommand,
  ViewOutput,
  ViewStateValue,
  ViewSubmitAction,
} from '@slack/bolt';
import { SLACK_EVENTS_PATH } from '../../src/slack/app.js';
import { SLASH_COMMAND } from '../../src/slack/ids.js';
import type { FakeSlack } from './fake-slack.js';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
/** The deprecated verification token Slack still sends in bodies; Bolt ignores it. */
const VERIFICATION_TOKEN = 'legacy-verification-token';
const API_APP_ID = 'A0FAKE';

/** A signed request, ready for send(). */
export interface SlackRequest {
  path: string;
  headers: Record<string, string>;
  /** The raw body, exactly as signed. */
  body: string;
  /** The decoded payload (for assertions and debugging). */
  payload: Record<string, unknown>;
  /** The id under which the fake Slack records POSTs to this request's response_url, if it has one. */
  responseUrlId?: string;
}

/** How to sign: by default correctly, with the current time. */
interface SignOptions {
  /** Sign with another secret: a well-formed signature that does not match. */
  badSignature?: boolean;
  /** Date the request this many seconds back (Bolt rejects anything older than 5 minutes). */
  ageSeconds?: number;
}

export interface SlackRequestDefaults {
  signingSecret: string;
  /** Builds the response_url for an id; pass the fake Slack's `responseUrl`. */
  responseUrl: (id: string) => string;
  /**
   * The fake Slack the requests come from: it issues their trigger_ids and learns the messages and views
   * they were sent from, as Slack knows them. Without it, trigger_ids are ones the fake never issued.
   */
  slack?: Pick<FakeSlack, 'issueTrigger' | 'showMessage' | 'showView'>;
  teamId?: string;
  userId?: string;
  channelId?: string;
  /** The bot's user id, as the fake Slack's auth.test reports it (event authorizations name it). */
  botUserId?: string;
  /** Clock for the signature timestamp; Bolt checks against the real clock, so only change it with care. */
  now?: () => number;
}

interface SlashCommandInput {
  text?: string;
  command?: string;
  userId?: string;
  userName?: string;
  teamId?: string;
  /** The Enterprise Grid organisation of the workspace (`enterprise_id`); none by default. */
  enterpriseId?: string;
  channelId?: string;
  channelName?: string;
  triggerId?: string;
  /** Id for the fake Slack's response_url; generated (`command-1` ...) when omitted. */
  responseUrlId?: string;
}

interface BlockActionInput {
  actionId: string;
  /** Button value. */
  value?: string;
  blockId?: string;
  /** Element type; `overflow` and `static_select` carry `selectedOption` instead of `value`. Default `button`. */
  elementType?: 'button' | 'overflow' | 'static_select';
  selectedOption?: { value: string; text?: string };
  userId?: string;
  /** The clicking user's own workspace (`user.team_id`). */
  teamId?: string;
  /**
   * The workspace the click came from (`team.id`) when it is not the user's own: a channel shared
   * between workspaces. Defaults to `teamId`.
   */
  channelTeamId?: string;
  /** The Enterprise Grid organisation (`enterprise`); none by default. */
  enterpriseId?: string;
  channelId?: string;
  /** The message the button sits in (default: a bot message with a fresh ts). Ignored when `view` is set. */
  message?: { ts?: string; text?: string; blocks?: unknown[]; thread_ts?: string };
  /** The message is ephemeral: Slack then sends no `message` field. */
  ephemeral?: boolean;
  /** The button sits in a modal or the Home tab: no channel, no response_url. */
  view?: Partial<ViewOutput> & { type: 'modal' | 'home' };
  /** Overrides the computed container. */
  container?: Record<string, unknown>;
  /** Extra fields merged into the action object. */
  action?: Record<string, unknown>;
  triggerId?: string;
  responseUrlId?: string;
}

/** A form value: a string means a plain_text_input with that value. */
type ViewValuesInput = Record<string, Record<string, ViewStateValue | string>>;

interface ViewSubmissionInput {
  callbackId: string;
  values?: ViewValuesInput;
  privateMetadata?: string;
  userId?: string;
  teamId?: string;
  /** The Enterprise Grid organisation (`enterprise`); none by default. */
  enterpriseId?: string;
  viewId?: string;
  externalId?: string;
  blocks?: unknown[];
  triggerId?: string;
}

interface EventInput {
  type: string;
  user?: string;
  [field: string]: unknown;
}

export interface SlackRequests {
  slashCommand(input?: SlashCommandInput, sign?: SignOptions): SlackRequest;
  blockAction(input: BlockActionInput, sign?: SignOptions): SlackRequest;
  viewSubmission(input: ViewSubmissionInput, sign?: SignOptions): SlackRequest;
  /** An Events API `event_callback` wrapping `event` (e.g. `{ type: 'app_home_opened', user: 'U1' }`). */
  event(event: EventInput, sign?: SignOptions): SlackRequest;
  /** The challenge Slack sends when the Request URL is saved. */
  urlVerification(challenge: string, sign?: SignOptions): SlackRequest;
  /**
   * `request` delivered again, as Slack retries an event it thinks went unanswered: the same body (the
   * same event_id), signed afresh at least `retryNum` seconds later, with X-Slack-Retry-Num and -Reason.
   */
  redelivery(request: SlackRequest, retryNum?: number): SlackRequest;
}

/** `v0=<hex HMAC-SHA256 of "v0:<timestamp>:<body>">`, as in X-Slack-Signature. */
export function slackSignature(signingSecret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', signingSecret).update(`v0:${timestampSeconds}:${body}`).digest('hex');
  return `v0=${digest}`;
}

export function createSlackRequests(defaults: SlackRequestDefaults): SlackRequests {
  const teamId = defaults.teamId ?? 'T0FAKE';
  const userId = defaults.userId ?? 'U0USER';
  const channelId = defaults.channelId ?? 'C0CHANNEL';
  const botUserId = defaults.botUserId ?? 'U0BOT';
  const now = defaults.now ?? Date.now;
  let sequence = 0;
  const next = (): number => {
    sequence += 1;
    return sequence;
  };
  const triggerId = (): string => defaults.slack?.issueTrigger() ?? `${next()}.1234567890.trigger`;
  const messageTs = (): string => `1600000000.${String(next()).padStart(6, '0')}`;

  const signed = (
    contentType: string,
    body: string,
    payload: Record<string, unknown>,
    sign: SignOptions,
    responseUrlId?: string,
  ): SlackRequest => {
    const timestamp = Math.floor(now() / 1000) - (sign.ageSeconds ?? 0);
    const secret = sign.badSignature ? `${defaults.signingSecret}-but-wrong` : defaults.signingSecret;
    return {
      path: SLACK_EVENTS_PATH,
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(secret, timestamp, body),
      },
      body,
      payload,
      responseUrlId,
    };
  };

  // Interactions arrive as one form field, `payload`, holding the JSON.
  const interaction = (payload: object, sign: SignOptions, responseUrlId?: string) =>
    signed(
      FORM,
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      { ...payload },
      sign,
      responseUrlId,
    );

  const viewOutput = (view: Partial<ViewOutput>, id: string): ViewOutput => ({
    id,
    team_id: teamId,
    type: 'modal',
    blocks: [],
    private_metadata: '',
    callback_id: '',
    state: { values: {} },
    hash: `1600000000.${id}`,
    title: { type: 'plain_text', text: 'Paperspace', emoji: true },
    clear_on_close: false,
    notify_on_close: false,
    close: null,
    submit: null,
    previous_view_id: null,
    root_view_id: id,
    app_id: API_APP_ID,
    external_id: '',
    app_installed_team_id: teamId,
    bot_id: 'B0BOT',
    ...view,
  });

  return {
    slashCommand(input = {}, sign = {}) {
      const responseUrlId = input.responseUrlId ?? `command-${next()}`;
      const command: SlashCommand = {
        token: VERIFICATION_TOKEN,
        team_id: input.teamId ?? teamId,
        team_domain: 'fake-team',
        ...(input.enterpriseId ? { enterprise_id: input.enterpriseId, enterprise_name: 'Grid Org' } : {}),
        channel_id: input.channelId ?? channelId,
        channel_name: input.channelName ?? 'general',
        user_id: input.userId ?? userId,
        user_name: input.userName ?? 'someone',
        command: input.command ?? SLASH_COMMAND,
        text: input.text ?? '',
        api_app_id: API_APP_ID,
        is_enterprise_install: 'false',
        response_url: defaults.responseUrl(responseUrlId),
        trigger_id: input.triggerId ?? triggerId(),
      };
      const body = new URLSearchParams(command as Record<string, string>).toString();
      return signed(FORM, body, command, sign, responseUrlId);
    },

    blockAction(input, sign = {}) {
      const elementType = input.elementType ?? 'button';
      const actionUser = input.userId ?? userId;
      const actionTeam = input.teamId ?? teamId;
      const selected = input.selectedOption
        ? {
            selected_option: {
              text: {
                type: 'plain_text',
                text: input.selectedOption.text ?? input.selectedOption.value,
                emoji: true,
              },
              value: input.selectedOption.value,
            },
          }
        : {};
      const action = {
        type: elementType,
        action_id: input.actionId,
        block_id: input.blockId ?? 'block-1',
        action_ts: `${Math.floor(now() / 1000)}.000100`,
        ...(elementType === 'button'
          ? { text: { type: 'plain_text', text: 'Button', emoji: true }, value: input.value ?? '' }
          : selected),
        ...input.action,
      } as BlockElementAction;

      const common = {
        type: 'block_actions' as const,
        user: { id: actionUser, username: 'someone', name: 'someone', team_id: actionTeam },
        api_app_id: API_APP_ID,
        token: VERIFICATION_TOKEN,
        trigger_id: input.triggerId ?? triggerId(),
        team: { id: input.channelTeamId ?? actionTeam, domain: 'fake-team' },
        ...(input.enterpriseId ? { enterprise: { id: input.enterpriseId, name: 'Grid Org' } } : {}),
        is_enterprise_install: false,
        actions: [action],
      };

      if (input.view !== undefined) {
        const view = viewOutput(input.view, input.view.id ?? `V${next()}`);
        defaults.slack?.showView(view);
        // Slack sends no response_url for actions in views; Bolt then offers no respond().
        const payload: Omit<BlockAction, 'response_url'> = {
          ...common,
          container: input.container ?? { type: 'view', view_id: view.id },
          view,
          state: view.state,
        };
        return interaction(payload, sign);
      }

      const responseUrlId = input.responseUrlId ?? `action-${next()}`;
      const ts = input.message?.ts ?? messageTs();
      const actionChannel = input.channelId ?? channelId;
      // The clicked message is in Slack (chat.update can change it), unless it is ephemeral.
      defaults.slack?.showMessage(actionChannel, ts, { ephemeral: input.ephemeral ?? false });
      const payload: BlockAction = {
        ...common,
        container: input.container ?? {
          type: 'message',
          message_ts: ts,
          channel_id: actionChannel,
          is_ephemeral: input.ephemeral ?? false,
        },
        channel: { id: actionChannel, name: 'general' },
        ...(input.ephemeral
          ? {}
          : {
              message: {
                type: 'message' as const,
                user: botUserId,
                bot_id: 'B0BOT',
                text: input.message?.text ?? '',
                blocks: input.message?.blocks ?? [],
                thread_ts: input.message?.thread_ts,
                ts,
              },
            }),
        state: { values: {} },
        response_url: defaults.responseUrl(responseUrlId),
      };
      return interaction(payload, sign, responseUrlId);
    },

    viewSubmission(input, sign = {}) {
      const values: ViewOutput['state']['values'] = {};
      for (const [blockId, actions] of Object.entries(input.values ?? {})) {
        values[blockId] = Object.fromEntries(
          Object.entries(actions).map(([actionId, value]) => [
            actionId,
            typeof value === 'string' ? { type: 'plain_text_input', value } : value,
          ]),
        );
      }
      const submitter = input.userId ?? userId;
      const submitterTeam = input.teamId ?? teamId;
      const view = viewOutput(
        {
          callback_id: input.callbackId,
          private_metadata: input.privateMetadata ?? '',
          state: { values },
          external_id: input.externalId ?? '',
          blocks: (input.blocks ?? []) as ViewOutput['blocks'],
          submit: { type: 'plain_text', text: 'Submit', emoji: true },
        },
        input.viewId ?? `V${next()}`,
      );
      defaults.slack?.showView(view);
      const payload: ViewSubmitAction = {
        type: 'view_submission',
        team: { id: submitterTeam, domain: 'fake-team' },
        user: { id: submitter, name: 'someone', team_id: submitterTeam },
        ...(input.enterpriseId ? { enterprise: { id: input.enterpriseId, name: 'Grid Org' } } : {}),
        api_app_id: API_APP_ID,
        token: VERIFICATION_TOKEN,
        trigger_id: input.triggerId ?? triggerId(),
        view,
        response_urls: [],
        is_enterprise_install: false,
      };
      return interaction(payload, sign);
    },

    event(event, sign = {}) {
      const eventTs = `${Math.floor(now() / 1000)}.000100`;
      const defaultsForType: Record<string, unknown> =
        event.type === 'app_home_opened'
          ? { channel: `D${(event.user ?? userId).slice(1)}`, tab: 'home' }
          : {};
      const payload = {
        token: VERIFICATION_TOKEN,
        team_id: teamId,
        api_app_id: API_APP_ID,
        event: { ...defaultsForType, event_ts: eventTs, ...event },
        type: 'event_callback',
        event_id: `Ev${String(next()).padStart(8, '0')}`,
        event_time: Math.floor(now() / 1000),
        authorizations: [
          {
            enterprise_id: null,
            team_id: teamId,
            user_id: botUserId,
            is_bot: true,
            is_enterprise_install: false,
          },
        ],
        is_ext_shared_channel: false,
      };
      return signed(JSON_TYPE, JSON.stringify(payload), payload, sign);
    },

    redelivery(request, retryNum = 1) {
      const first = Number(request.headers['x-slack-request-timestamp']);
      const timestamp = Math.max(Math.floor(now() / 1000), first + retryNum);
      return {
        ...request,
        headers: {
          ...request.headers,
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': slackSignature(defaults.signingSecret, timestamp, request.body),
          'x-slack-retry-num': String(retryNum),
          'x-slack-retry-reason': 'http_timeout',
        },
      };
    },

    urlVerification(challenge, sign = {}) {
      const payload = { token: VERIFICATION_TOKEN, challenge, type: 'url_verification' };
      return signed(JSON_TYPE, JSON.stringify(payload), payload, sign);
    },
  };
}

export interface SlackResponse {
  status: number;
  /** Parsed JSON when the response is JSON, the text otherwise, undefined when empty. */
  body: unknown;
  headers: Headers;
}

/** POSTs a request to the app (baseUrl like `http://127.0.0.1:<port>`) and reads the answer Slack would get. */
export async function send(baseUrl: string, request: SlackRequest): Promise<SlackResponse> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
  const body = text === '' ? undefined : isJson ? JSON.parse(text) : text;
  return { status: response.status, body, headers: response.headers };
}
