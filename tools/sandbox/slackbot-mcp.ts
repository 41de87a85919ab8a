// Slackbot's side of the bot's /mcp, without a model: the page picks a tool and its arguments, and this
// calls it as Slackbot's MCP client would, for the person acting on the page. It speaks through the
// official MCP SDK's client over Streamable HTTP, each body signed with the signing secret as Slack signs
// its requests, and names the caller in `params._meta.slack`. What came back is handed to the page as
// it is (text, blocks, isError): a change's confirmation arrives in the person's DM, posted by the bot.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { MCP_PATH } from '../../src/slack/mcp/mcp-endpoint.js';
import { isRecord } from './http-util.js';
import { SANDBOX_TEAM } from './sandbox-identity.js';
import { slackSignature } from './signed-sender.js';

/** Longer than Slack's 3 s ack: a tool call is answered in its response, and a read asks Paperspace. */
const CALL_TIMEOUT_MS = 30_000;

/** A tool as the page offers it. */
interface SlackbotTool {
  name: string;
  title: string;
  description: string;
  /** JSON Schema of the arguments, as tools/list gives it. */
  inputSchema: Record<string, unknown>;
  /** A read answers at once; a change is only proposed, and confirmed in the person's DM. */
  readOnly: boolean;
}

/** A tool's result as the page shows it. */
interface SlackbotResult {
  text: string;
  /** `_meta.slack.blocks`, drawn with the page's Block Kit renderer. */
  blocks: unknown[];
  isError: boolean;
}

type Failure = { ok: false; error: string };

export interface SlackbotMcp {
  tools(): Promise<{ ok: true; tools: SlackbotTool[] } | Failure>;
  call(input: {
    userId: string;
    tool: string;
    arguments: Record<string, unknown>;
  }): Promise<{ ok: true; result: SlackbotResult } | Failure>;
  close(): Promise<void>;
}

export interface SlackbotMcpOptions {
  signingSecret: string;
  /** The bot's Slack request URL (`…/slack/events`); /mcp is on the same server. Empty until it listens. */
  requestUrl: () => string;
  logger: Logger;
  now: () => number;
}

export function createSlackbotMcp(options: SlackbotMcpOptions): SlackbotMcp {
  const { logger } = options;
  // One client for the sandbox's life, shared by everyone on the page (the caller is in each call's
  // `_meta`): the server is stateless, so one handshake serves every call, and each call's own JSON-RPC
  // id keeps two identical calls within a second from being one signature (which the bot would refuse
  // as a replay). A client whose connection failed is dropped, and the next call connects again.
  let connecting: Promise<Client> | undefined;

  const mcpUrl = (): URL | undefined => {
    const requestUrl = options.requestUrl();
    return requestUrl === '' ? undefined : new URL(MCP_PATH, requestUrl);
  };

  const connect = (url: URL): Promise<Client> => {
    connecting ??= (async () => {
      const client = new Client({ name: 'slackbot-sandbox', title: 'Slackbot (sandbox)', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(url, { fetch: signingFetch(options) });
      await client.connect(transport);
      return client;
    })().catch((error: unknown) => {
      connecting = undefined;
      throw error;
    });
    return connecting;
  };

  /** Runs `step` with the connected client; a failure becomes the sentence the page shows. */
  const withClient = async <T>(
    step: (client: Client) => Promise<T>,
  ): Promise<{ ok: true; value: T } | Failure> => {
    const url = mcpUrl();
    if (url === undefined)
      return { ok: false, error: 'The bot is not listening yet: try again in a moment.' };
    try {
      return { ok: true, value: await step(await connect(url)) };
    } catch (error) {
      if (!(error instanceof McpError)) {
        const dropped = connecting;
        connecting = undefined;
        void dropped?.then((client) => client.close()).catch(() => undefined);
      }
      logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'sandbox: a Slackbot call failed',
      );
      return { ok: false, error: failureSentence(error, url) };
    }
  };

  return {
    async tools() {
      const listed = await withClient((client) => client.listTools());
      if (!listed.ok) return listed;
      return {
        ok: true,
        tools: listed.value.tools.map((tool) => ({
          name: tool.name,
          title: tool.title ?? tool.annotations?.title ?? tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema,
          readOnly: tool.annotations?.readOnlyHint === true,
        })),
      };
    },

    async call({ userId, tool, arguments: args }) {
      const identity = { user_id: userId, team_id: SANDBOX_TEAM.id };
      const answered = await withClient((client) =>
        client.callTool({ name: tool, arguments: args, _meta: { slack: identity } }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        }),
      );
      if (!answered.ok) return answered;
      return { ok: true, result: pageResult(answered.value) };
    },

    async close() {
      const open = connecting;
      connecting = undefined;
      await open?.then((client) => client.close()).catch(() => undefined);
    },
  };
}

/** A fetch that signs each body (the SDK sends JSON strings; a GET has none) as Slack signs requests. */
function signingFetch({
  signingSecret,
  now,
}: Pick<SlackbotMcpOptions, 'signingSecret' | 'now'>): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : '';
    const timestamp = Math.floor(now() / 1000);
    headers.set('x-slack-request-timestamp', String(timestamp));
    headers.set('x-slack-signature', slackSignature(signingSecret, timestamp, body));
    headers.set('user-agent', 'Slackbot 1.0 (+https://api.slack.com/robots)');
    return fetch(input, { ...init, headers });
  };
}

function pageResult(result: Record<string, unknown>): SlackbotResult {
  const content = Array.isArray(result.content) ? result.content : [];
  const text = content
    .flatMap((part) =>
      isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [],
    )
    .join('\n');
  const meta = isRecord(result._meta) ? result._meta : {};
  const slack = isRecord(meta.slack) ? meta.slack : {};
  return { text, blocks: Array.isArray(slack.blocks) ? slack.blocks : [], isError: result.isError === true };
}

/** What went wrong, in a sentence: the bot's own words when it refused, else what kept the call from it. */
function failureSentence(error: unknown, url: URL): string {
  if (error instanceof McpError)
    return `The bot refused the call: ${error.message.replace(/^(MCP error -?\d+: )+/, '')}`;
  if (error instanceof StreamableHTTPError) {
    const said = jsonRpcErrorMessage(error.message);
    return `The bot refused the request at ${url.pathname} (HTTP ${error.code})${said === undefined ? '.' : `: ${said}`}`;
  }
  const reason = error instanceof Error ? error.message : String(error);
  return `The bot did not answer at ${url.href} (${reason}).`;
}

/** The JSON-RPC error's message in the body the SDK quotes after "Error POSTing to endpoint: ". */
function jsonRpcErrorMessage(quoted: string): string | undefined {
  const start = quoted.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body: unknown = JSON.parse(quoted.slice(start));
    const error = isRecord(body) && isRecord(body.error) ? body.error : {};
    return typeof error.message === 'string' ? error.message : undefined;
  } catch {
    return undefined;
  }
}
