// The shim the MCP conformance suite runs through must make an ordinary MCP client look like Slackbot,
// no more: what comes back is what Slackbot's own signed client gets, and a body sent twice is signed
// twice rather than refused as a replay. These run on any Node, the suite itself only on 22 and later.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PATH } from '../../src/slack/mcp/mcp-endpoint.js';
import { type SlackSigningShim, startSlackSigningShim } from './slack-signing-shim.js';
import { connectSlackbot, resultText, type SlackbotClient } from './slackbot-client.js';
import { SIGNING_SECRET, TEAM_ID, USERS } from './test-bot.js';
import { useTestBot } from './use-test-bot.js';

const ada = { user_id: USERS.ada.slackId, team_id: TEAM_ID };
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Resolves once the clock's second (a Slack signature's timestamp) has changed. */
function nextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 1));
}

describe('the Slack signing shim in front of /mcp', () => {
  const bot = useTestBot({ linked: ['ada'] });
  let shim: SlackSigningShim;

  beforeAll(async () => {
    shim = await startSlackSigningShim({ target: bot.url, signingSecret: SIGNING_SECRET, identity: ada });
  });
  afterAll(async () => {
    await shim?.close();
  });

  it('answers an unsigned client calling a tool as Slackbot is answered for the same person', async () => {
    const client = new Client({ name: 'unsigned-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${shim.url}${MCP_PATH}`)));
    const throughShim = (await client.callTool({ name: 'list_machines', arguments: {} })) as CallToolResult;
    await client.close();
    // Both clients open with byte-identical bodies (notifications/initialized), and the bot refuses a
    // signature it has seen: Slackbot's client signs its own, so it starts at the next second.
    await nextSecond();
    const slackbot: SlackbotClient = await connectSlackbot(bot.url, SIGNING_SECRET);
    const fromSlackbot = await slackbot.call('list_machines', {}, ada);
    await slackbot.close();
    expect(throughShim.isError).not.toBe(true);
    expect(resultText(throughShim)).toContain('ada-workstation');
    expect(resultText(throughShim)).toBe(resultText(fromSlackbot));
  });

  it('signs the same body sent twice in a row afresh, where the bot would refuse a replay', async () => {
    const send = () => fetch(`${shim.url}${MCP_PATH}`, { method: 'POST', headers: MCP_HEADERS, body: PING });
    expect((await send()).status).toBe(200);
    expect((await send()).status).toBe(200);
  });

  it('is needed: the bot refuses the same request sent to it unsigned', async () => {
    const answer = await fetch(`${bot.url}${MCP_PATH}`, { method: 'POST', headers: MCP_HEADERS, body: PING });
    expect(answer.status).toBe(401);
  });
});
