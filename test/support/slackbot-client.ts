// Slackbot's side of /mcp, as Slack's MCP client speaks it under Slack identity auth: the official MCP
// SDK's client over Streamable HTTP, every request body signed with the app's signing secret exactly as
// Slack signs its other requests, and each tools/call naming its caller in `params._meta.slack`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ActionId } from '../../src/slack/ids.js';
import { MCP_PATH } from '../../src/slack/mcp/mcp-endpoint.js';
import type { ApiCall, FakeSlack } from './fake-slack.js';
import { type SlackRequest, type SlackRequests, slackSignature } from './slack-requests.js';

export interface SlackIdentity {
  user_id: string;
  team_id: string;
  enterprise_id?: string;
}

export interface SlackbotClient {
  client: Client;
  /** tools/call for `identity`, as Slackbot sends it. */
  call(
    name: string,
    args: Record<string, unknown>,
    identity: SlackIdentity | undefined,
  ): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** A fetch that signs each request's body as Slack does (the body is a string: the SDK sends JSON). */
export function signingFetch(signingSecret: string, now: () => number = Date.now): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : '';
    const timestamp = Math.floor(now() / 1000);
    headers.set('x-slack-request-timestamp', String(timestamp));
    headers.set('x-slack-signature', slackSignature(signingSecret, timestamp, body));
    return fetch(input, { ...init, headers });
  };
}

export async function connectSlackbot(baseUrl: string, signingSecret: string): Promise<SlackbotClient> {
  const client = new Client({ name: 'slackbot-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}${MCP_PATH}`), {
    fetch: signingFetch(signingSecret),
  });
  await client.connect(transport);
  return {
    client,
    async call(name, args, identity) {
      const result = await client.callTool({
        name,
        arguments: args,
        ...(identity === undefined ? {} : { _meta: { slack: identity } }),
      });
      return result as CallToolResult;
    },
    close: () => client.close(),
  };
}

/** The text of a tool result, its parts joined. */
export function resultText(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

type ButtonBlock = { elements?: { action_id?: string; value?: string }[] };

/** The bot's message to `userId` that carries a Slackbot confirmation (Confirm and Cancel), once posted. */
export function confirmationTo(slack: Pick<FakeSlack, 'waitFor'>, userId: string): Promise<ApiCall> {
  return slack.waitFor(
    (call) =>
      call.method === 'chat.postMessage' &&
      call.args.channel === userId &&
      JSON.stringify(call.args.blocks ?? []).includes(ActionId.slackbotConfirm),
  );
}

/**
 * A click by `userId` on Confirm or Cancel of `confirmation`, signed as Slack sends it, from the DM the
 * message landed in (shown to the fake Slack, so the bot may update it).
 */
export function confirmationClick(
  slack: Pick<FakeSlack, 'showMessage'>,
  requests: Pick<SlackRequests, 'blockAction'>,
  confirmation: ApiCall,
  actionId: typeof ActionId.slackbotConfirm | typeof ActionId.slackbotCancel,
  userId: string,
): SlackRequest {
  const channel = String(confirmation.answer?.channel ?? confirmation.args.channel);
  const ts = String(confirmation.answer?.ts);
  slack.showMessage(channel, ts);
  const value = ((confirmation.args.blocks ?? []) as ButtonBlock[])
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === actionId)?.value;
  if (value === undefined) throw new Error(`no ${actionId} on ${JSON.stringify(confirmation.args.blocks)}`);
  return requests.blockAction({
    actionId,
    value,
    userId,
    channelId: channel,
    message: { ts, text: String(confirmation.args.text), blocks: confirmation.args.blocks as unknown[] },
  });
}
