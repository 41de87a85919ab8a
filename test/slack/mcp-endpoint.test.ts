// POST /mcp as Slackbot's MCP client reaches it: only requests Slack signed are served, and whatever
// else arrives gets a JSON-RPC error and does no work. The SDK's own client drives the signed ones.
import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/slack/request-guard.js';
import { connectSlackbot, resultText, type SlackbotClient } from '../support/slackbot-client.js';
import { SIGNING_SECRET, USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const bot = useTestBot({ linked: ['ada'] });
let slackbot: SlackbotClient | undefined;
afterEach(async () => {
  await slackbot?.close();
  slackbot = undefined;
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slackbot', version: '1' } },
};
const CALL = {
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/call',
  params: {
    name: 'list_machines',
    arguments: {},
    _meta: { slack: { user_id: USERS.ada.slackId, team_id: 'T0FAKE' } },
  },
};

function signature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** What the endpoint answers: a result, or an error with no id when no request could be read. */
interface JsonRpcAnswer {
  jsonrpc: string;
  id: number | null;
  result?: { serverInfo?: { name?: string } };
  error?: { code: number; message: string };
}

async function post(body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${bot.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text === '' ? undefined : (JSON.parse(text) as JsonRpcAnswer),
  };
}

function signed(body: string, options: { ageSeconds?: number; secret?: string } = {}) {
  const timestamp = Math.floor(Date.now() / 1000) - (options.ageSeconds ?? 0);
  return {
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': signature(options.secret ?? SIGNING_SECRET, timestamp, body),
  };
}

describe('POST /mcp', () => {
  it('answers a signed initialize and tools/list with every tool, its schema and its hints', async () => {
    slackbot = await connectSlackbot(bot.url, SIGNING_SECRET);
    expect(slackbot.client.getServerVersion()?.name).toBe('paperspace-ops');
    const { tools } = await slackbot.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'list_machines',
      'show_machine',
      'machine_usage',
      'spend',
      'machine_availability',
      'my_requests',
      'list_templates',
      'start_machine',
      'stop_machine',
      'restart_machine',
      'wait_for_machine',
      'share_machine',
      'request_machine',
    ]) {
      expect(byName.get(name)?._meta).toEqual({ slack: { supportsBlockKit: true } });
    }
    expect(byName.has('destroy_machine')).toBe(false);
    expect([...byName.keys()].some((name) => name.includes('destroy'))).toBe(false);
    const stop = byName.get('stop_machine');
    expect(stop?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: true,
    });
    expect(stop?.description).toContain('confirms');
    expect(stop?.inputSchema).toMatchObject({ type: 'object', required: ['machine'] });
    expect(byName.get('list_machines')?.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
    });
  });

  it('refuses unsigned, wrongly signed, stale and replayed requests with 401 and calls nobody', async () => {
    const body = JSON.stringify(CALL);
    const before = bot.emulator.state.requests().length;
    const unsigned = await post(body);
    const wrong = await post(body, signed(body, { secret: 'not-the-secret' }));
    const stale = await post(body, signed(body, { ageSeconds: 6 * 60 }));
    for (const refused of [unsigned, wrong, stale]) {
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    expect(bot.emulator.state.requests().length).toBe(before);

    // Signed, it is served (the stateless transport answers a call without initialize); sent again
    // with the same signature, it is a replay and does nothing.
    const headers = signed(body);
    const first = await post(body, headers);
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body)).toContain('ada-workstation');
    const served = bot.emulator.state.requests().length;
    const replay = await post(body, headers);
    expect(replay).toMatchObject({ status: 401, body: { error: { code: -32600 } } });
    expect(bot.emulator.state.requests().length).toBe(served);
  });

  it('answers a body that is not JSON, a batch, an unknown method and an oversized body with JSON-RPC errors', async () => {
    const notJson = '{"jsonrpc": "2.0", "method": ';
    const parse = await post(notJson, signed(notJson));
    expect(parse).toMatchObject({ status: 400, body: { error: { code: -32700 } } });

    const batch = JSON.stringify([INIT]);
    const refusedBatch = await post(batch, signed(batch));
    expect(refusedBatch).toMatchObject({ status: 400, body: { jsonrpc: '2.0', error: { code: -32600 } } });

    const unknown = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'machines/explode', params: {} });
    const unknownAnswer = await post(unknown, signed(unknown));
    expect(unknownAnswer.status).toBeLessThan(500);
    expect(unknownAnswer.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });

    const huge = JSON.stringify({ ...INIT, padding: 'x'.repeat(BODY_LIMIT_BYTES) });
    const tooLarge = await post(huge, signed(huge));
    expect(tooLarge).toMatchObject({ status: 413, body: { error: { code: -32600 } } });
  });

  it('answers GET and DELETE with 405: there is no session and no stream', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${bot.url}/mcp`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('names an unknown tool in a JSON-RPC error', async () => {
    slackbot = await connectSlackbot(bot.url, SIGNING_SECRET);
    await expect(
      slackbot.call(
        'destroy_machine',
        { machine: 'ada-workstation' },
        { user_id: USERS.ada.slackId, team_id: 'T0FAKE' },
      ),
    ).rejects.toThrow(/no tool named "destroy_machine"/);
  });

  it('serves the same initialize twice: Slackbot opens every conversation with the same bytes', async () => {
    const body = JSON.stringify(INIT);
    const headers = signed(body);
    const first = await post(body, headers);
    const again = await post(body, headers);
    expect(first.body?.result?.serverInfo?.name).toBe('paperspace-ops');
    expect(again.body?.result?.serverInfo?.name).toBe('paperspace-ops');
  });

  it('serves a call signed as Slack signs it and answers in words', async () => {
    slackbot = await connectSlackbot(bot.url, SIGNING_SECRET);
    const result = await slackbot.call(
      'list_machines',
      {},
      { user_id: USERS.ada.slackId, team_id: 'T0FAKE' },
    );
    expect(result.isError).toBeUndefined();
    expect(resultText(result)).toContain('ada-workstation');
  });
});
