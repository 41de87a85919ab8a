// POST /mcp: the MCP server Slackbot's MCP client talks to (Streamable HTTP, stateless). The request
// guard (request-guard.ts) has verified Slack's signature, its timestamp and that it is no replay before
// anything here runs, as for /slack/events; the body it read is on the request. Each request gets a
// server and a transport of its own, which the official SDK builds and answers: there is no session to
// keep, so any replica answers any request. What a tool does is the host's (features/slackbot).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import { JsonRpcCode, jsonRpcError } from './json-rpc-error.js';

export const MCP_PATH = '/mcp';

const SERVER_INFO = { name: 'paperspace-ops', title: 'Paperspace Ops', version: '1.0.0' };
const INSTRUCTIONS =
  "Paperspace machines of the person asking, run with that person's own Paperspace API key. Reads answer at once. " +
  'Changes (start, stop, restart, share, request a machine) are only proposed: the bot asks the person to confirm in Slack.';

/** What the tools are and what a call does; the endpoint only speaks the protocol. */
export interface McpToolHost {
  tools(): Tool[];
  /** Runs one tool for the caller `_meta.slack` names; answers in words, never throws for a person's mistake. */
  call(name: string, args: Record<string, unknown> | undefined, meta: unknown): Promise<CallToolResult>;
}

export function mcpRoutes(host: McpToolHost, logger: Logger): CustomRoute[] {
  return [
    {
      path: MCP_PATH,
      method: 'POST',
      handler: (request, response) => void serve(host, logger, request, response),
    },
    // Stateless: no stream to open with GET and no session to end with DELETE (the transport's spec).
    {
      path: MCP_PATH,
      method: ['GET', 'DELETE'],
      handler: (_request, response) => {
        jsonRpcError(response, 405, JsonRpcCode.invalidRequest, 'This MCP server answers POST only.', {
          allow: 'POST',
        });
      },
    },
  ];
}

async function serve(host: McpToolHost, logger: Logger, request: IncomingMessage, response: ServerResponse) {
  let body: unknown;
  try {
    body = JSON.parse(rawBodyOf(request));
  } catch {
    jsonRpcError(response, 400, JsonRpcCode.parseError, 'The body is not JSON.');
    return;
  }
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: host.tools() }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const known = host.tools().some((tool) => tool.name === params.name);
    if (!known)
      throw new McpError(ErrorCode.InvalidParams, `There is no tool named ${JSON.stringify(params.name)}.`);
    return host.call(params.name, params.arguments, params._meta?.slack);
  });
  // JSON answers, not an event stream: every answer is one message, and nothing is sent later.
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  } catch (error) {
    logger.error({ error: describeError(error) }, 'the MCP endpoint failed');
    if (!response.headersSent)
      jsonRpcError(response, 500, JsonRpcCode.internalError, 'Something went wrong; nothing was done.');
  }
}

/** The body the request guard read (Bolt's buffering keeps it on the request). */
function rawBodyOf(request: IncomingMessage): string {
  const raw = (request as IncomingMessage & { rawBody?: unknown }).rawBody;
  if (!Buffer.isBuffer(raw)) throw new Error('the request guard did not read the body');
  return raw.toString();
}
