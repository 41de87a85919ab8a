// Slackbot's side in the sandbox, against the real bot as `npm start` runs it: the page's Slackbot
// endpoints list the bot's MCP tools, call one as the person acting on the page (signed as Slack signs,
// the caller in `_meta.slack`), and hand back the text and blocks; a change is only proposed, and the
// bot's Confirm in the person's DM, clicked through the sandbox's own click path, makes it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSlackbotMcp } from '../../../tools/sandbox/slackbot-mcp.js';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';
import { eventually, type SandboxPage, sandboxPage } from './support/sandbox-page.js';

const ADA = 'U0ADA';
const ADA_DM = 'D0ADA';
const ADA_KEY = 'demo-key-ada-individual';
/** Ada's machine that is off in the demo seed; a desktop, so a start ends in "ready". */
const MACHINE = 'ada-render';

let directory: string;
let sandbox: RunningSandbox;
let page: SandboxPage;

interface CallAnswer {
  ok: boolean;
  error?: string;
  result?: { text: string; blocks: Record<string, unknown>[]; isError: boolean };
}

async function call(user: string, tool: string, args: unknown): Promise<CallAnswer> {
  const { status, body } = await page.post('/sandbox/slackbot/call', { user, tool, arguments: args });
  expect(status).toBe(200);
  return body as unknown as CallAnswer;
}

/** Every element type in the blocks, to see which interactive ones came through. */
function elementTypes(blocks: Record<string, unknown>[]): string[] {
  return JSON.stringify(blocks).match(/"type":"(button|overflow|static_select|checkboxes)"/g) ?? [];
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'sandbox-slackbot-'));
  sandbox = await startSandbox({
    logger: captureLogs().logger,
    port: 0,
    dataDir: join(directory, 'data'),
    transitionMs: 200,
  });
  page = sandboxPage(sandbox.url.replace(/\/$/, ''));
  await page.login(ADA, ADA_KEY);
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
  await rm(directory, { recursive: true, force: true });
});

describe("the sandbox's Slackbot endpoints", () => {
  it("list the bot's tools with their arguments' schemas, reads apart from changes", async () => {
    const { status, body } = await page.post('/sandbox/slackbot/tools', { user: ADA });
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    const tools = body.tools as { name: string; readOnly: boolean; inputSchema: Record<string, unknown> }[];
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('show_machine')).toMatchObject({
      readOnly: true,
      inputSchema: { properties: { machine: { type: 'string' } }, required: ['machine'] },
    });
    for (const change of ['start_machine', 'stop_machine', 'restart_machine', 'share_machine'])
      expect(byName.get(change)?.readOnly, change).toBe(false);
  });

  it('call a read tool as the person on the page and give back its text and its blocks, buttons taken out', async () => {
    const answer = await call(ADA, 'show_machine', { machine: MACHINE });
    expect(answer.ok).toBe(true);
    expect(answer.result?.isError).toBe(false);
    expect(answer.result?.text).toContain(`${MACHINE}: ⚫ Off`);
    expect(answer.result?.blocks[0]).toMatchObject({ type: 'header', text: { text: MACHINE } });
    expect(elementTypes(answer.result?.blocks ?? [])).toEqual([]);
  });

  it('name whoever is acting on the page: Sam, who linked no key, is told so as an error result', async () => {
    const answer = await call('U0SAM', 'show_machine', { machine: MACHINE });
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.text).toMatch(/not linked a Paperspace API key.*\/ps login/);
  });

  it('answer bad input with a sentence: arguments that are not an object, an unknown tool or person, a wrong type', async () => {
    const notAnObject = await page.post('/sandbox/slackbot/call', {
      user: ADA,
      tool: 'show_machine',
      arguments: 'ada-render',
    });
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.error).toBe('✖ must be an object of the tool’s arguments\n  → at arguments');

    expect(await call(ADA, 'launch_rocket', {})).toEqual({
      ok: false,
      error: 'The bot refused the call: There is no tool named "launch_rocket".',
    });
    expect(await call('U0NOBODY', 'show_machine', { machine: MACHINE })).toEqual({
      ok: false,
      error: 'user must be a person of the sandbox workspace',
    });
    const wrongType = await call(ADA, 'show_machine', { machine: 7 });
    expect(wrongType.result).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^The parameter machine: /),
    });
  });

  it('lead a change to the Confirm in the person’s DM, and that click through the page starts the machine', {
    timeout: 30_000,
  }, async () => {
    const proposed = await call(ADA, 'start_machine', { machine: MACHINE });
    expect(proposed.result).toMatchObject({
      isError: false,
      text: expect.stringMatching(/nothing happens until you click Confirm/),
    });
    const proposal = await eventually(
      async () =>
        (await page.snapshot(ADA)).messages.find(
          (message) =>
            message.channel === ADA_DM && JSON.stringify(message.blocks).includes('slackbot_confirm'),
        ),
      'the confirmation in Ada’s DM',
    );
    expect(proposal.text).toContain('Start a machine?');
    // Only proposed: the machine is still off until Ada confirms.
    expect((await call(ADA, 'show_machine', { machine: MACHINE })).result?.text).toContain('⚫ Off');

    const actions = proposal.blocks.find((block) => block.type === 'actions');
    const clicked = await page.post('/sandbox/action', {
      user: ADA,
      container: { kind: 'message', channel: ADA_DM, ts: proposal.ts },
      blockId: actions?.block_id,
      actionId: 'slackbot_confirm',
    });
    expect(clicked.body).toEqual({ ok: true });

    const completion = await eventually(
      async () =>
        (await page.snapshot(ADA)).messages.find(
          (message) =>
            message.channel === ADA_DM && message.threadTs !== null && /is 🟢 Ready/.test(message.text),
        ),
      `the completion for ${MACHINE} in Ada’s DM`,
    );
    expect(completion.text).toContain(MACHINE);
    const decided = (await page.snapshot(ADA)).messages.find((message) => message.ts === proposal.ts);
    expect(decided?.text).toMatch(/Confirmed by you/);
    expect((await call(ADA, 'show_machine', { machine: MACHINE })).result?.text).toContain('🟢 Ready');
  });
});

describe("the sandbox's Slackbot client", () => {
  const options = () => ({ logger: captureLogs().logger, now: Date.now });

  it('says so when the bot is not listening yet, or refuses a request not signed with its secret', async () => {
    const early = createSlackbotMcp({ ...options(), signingSecret: 'x', requestUrl: () => '' });
    expect(await early.tools()).toEqual({
      ok: false,
      error: 'The bot is not listening yet: try again in a moment.',
    });

    const forged = createSlackbotMcp({
      ...options(),
      signingSecret: 'not-the-sandbox-secret',
      requestUrl: () => `${sandbox.botUrl}/slack/events`,
    });
    const refused = await forged.tools();
    await forged.close();
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The bot refused the request at \/mcp \(HTTP 401\)/),
    });
  });

  it('says the bot did not answer when nothing listens at its address', async () => {
    const gone = createSlackbotMcp({
      ...options(),
      signingSecret: 'x',
      requestUrl: () => 'http://127.0.0.1:9/slack/events',
    });
    expect(await gone.tools()).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^The bot did not answer at http:\/\/127\.0\.0\.1:9\/mcp/),
    });
  });
});
