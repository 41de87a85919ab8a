// The Slack stand-in over HTTP, called by the same Web API client the bot uses: what each method
// answers, what it changes in the workspace, and what it refuses with which of Slack's errors.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeClock, type FakeClock } from '../../../tools/emulator/index.js';
import { createChangeFeed, type WorkspaceChange } from '../../../tools/sandbox/change-feed.js';
import { createGrants, type Grants } from '../../../tools/sandbox/grants.js';
import { createFakeUnfurls, type FakeUnfurls } from '../../../tools/sandbox/link-unfurls.js';
import { createSlackStandin } from '../../../tools/sandbox/slack-standin.js';
import { createViewStacks, type ViewStacks } from '../../../tools/sandbox/view-stacks.js';
import { createFakeFunctions, type FakeFunctions } from '../../../tools/sandbox/workflow-functions.js';
import { createWorkspace, type Workspace } from '../../../tools/sandbox/workspace.js';
import { captureLogs } from '../../support/log-capture.js';

const BOT_TOKEN = 'xoxb-standin-test';
const GENERAL = 'C0GENERAL';
const ADA = 'U0ADA';
const MAYA = 'U0MAYA';

let clock: FakeClock;
let workspace: Workspace;
let views: ViewStacks;
let grants: Grants;
let changes: WorkspaceChange[];
let server: Server;
let url: string;
let slack: WebClient;
let functions: FakeFunctions;
let runsEnded: string[];
let unfurls: FakeUnfurls;
let unfurled: { args: Record<string, unknown>; given: Record<string, { blocks: unknown[] }> }[];

beforeEach(async () => {
  clock = createFakeClock();
  const feed = createChangeFeed();
  changes = [];
  feed.subscribe((change) => changes.push(change));
  workspace = createWorkspace({ feed, now: clock.now });
  views = createViewStacks({ feed, now: clock.now });
  grants = createGrants({ now: clock.now });
  functions = createFakeFunctions('A0SANDBOX');
  runsEnded = [];
  unfurls = createFakeUnfurls(() => workspace.nextTs());
  unfurled = [];
  const standin = createSlackStandin({
    workspace,
    views,
    grants,
    botToken: BOT_TOKEN,
    functions,
    onRunEnded: (executionId) => runsEnded.push(executionId),
    unfurls,
    onUnfurled: (args, given) => unfurled.push({ args, given }),
    logger: captureLogs().logger,
    now: clock.now,
  });
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    void standin.handle(request, response, path).then((handled) => {
      if (!handled) response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  slack = new WebClient(BOT_TOKEN, { slackApiUrl: `${url}/api/`, retryConfig: { retries: 0 } });
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The Slack error a call failed with (the Web API client throws on `ok: false`). */
async function slackError(call: Promise<unknown>): Promise<{ error: string; messages: string[] }> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: { error: string; response_metadata?: { messages?: string[] } } }).data;
    return { error: data?.error ?? String(error), messages: data?.response_metadata?.messages ?? [] };
  }
  throw new Error('expected the call to fail');
}

async function rawCall(method: string, init: RequestInit): Promise<Record<string, unknown>> {
  return (await fetch(`${url}/api/${method}`, { method: 'POST', ...init })).json() as Promise<
    Record<string, unknown>
  >;
}

const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const modal = (title: string, extra: Record<string, unknown> = {}) => ({
  type: 'modal' as const,
  title: { type: 'plain_text' as const, text: title },
  blocks: [section('hello')],
  ...extra,
});

describe('authentication', () => {
  it('answers auth.test with the sandbox team and the bot’s ids', async () => {
    const answer = await slack.auth.test();
    expect(answer).toMatchObject({ ok: true, team_id: 'T0SANDBOX', user_id: 'U0PSBOT', bot_id: 'B0PSBOT' });
  });

  it('refuses calls without a token or with another token, as Slack does', async () => {
    expect(await rawCall('auth.test', {})).toEqual({ ok: false, error: 'not_authed' });
    expect(await rawCall('auth.test', { headers: { authorization: 'Bearer xoxb-other' } })).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
  });

  it('answers unknown_method for a method Slack has but the sandbox does not serve', async () => {
    expect(
      await rawCall('chat.scheduleMessage', { headers: { authorization: `Bearer ${BOT_TOKEN}` } }),
    ).toMatchObject({ ok: false, error: 'unknown_method' });
  });
});

describe('chat.postMessage', () => {
  it('posts blocks in a channel, with the block_ids Slack assigns to blocks that have none', async () => {
    const answer = await slack.chat.postMessage({
      channel: GENERAL,
      text: 'fallback',
      blocks: [section('*hi*')],
    });
    const stored = workspace.message(GENERAL, answer.ts ?? '');
    expect(stored?.text).toBe('fallback');
    expect(stored?.blocks).toEqual([{ ...section('*hi*'), block_id: expect.any(String) }]);
    expect(answer.message?.blocks?.[0]?.block_id).toBe(
      (stored?.blocks[0] as { block_id?: string } | undefined)?.block_id,
    );
    expect(changes).toContainEqual({ type: 'message', message: expect.objectContaining({ ts: answer.ts }) });
  });

  it('posts to a person’s id in the app’s DM with them', async () => {
    const answer = await slack.chat.postMessage({ channel: MAYA, text: 'a reminder' });
    expect(answer.channel).toBe('D0MAYA');
    expect(workspace.snapshotFor(MAYA).messages.map((m) => m.text)).toContain('a reminder');
    expect(workspace.snapshotFor(ADA).messages.map((m) => m.text)).not.toContain('a reminder');
  });

  it('refuses a private channel the app was not added to with channel_not_found', async () => {
    expect(await slackError(slack.chat.postMessage({ channel: 'G0PRIVATE', text: 'x' }))).toMatchObject({
      error: 'channel_not_found',
    });
  });

  it('refuses a message without text or blocks, and blocks beyond Slack’s limits, naming the place', async () => {
    expect((await slackError(slack.chat.postMessage({ channel: GENERAL, text: '' }))).error).toBe('no_text');
    const tooMany = Array.from({ length: 51 }, () => ({ type: 'divider' }));
    expect(
      await slackError(slack.chat.postMessage({ channel: GENERAL, text: 'x', blocks: tooMany })),
    ).toEqual({
      error: 'invalid_blocks',
      messages: ['[ERROR] no more than 50 items allowed [json-pointer:/blocks]'],
    });
    const longHeader = [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }];
    expect(
      await slackError(slack.chat.postMessage({ channel: GENERAL, text: 'x', blocks: longHeader })),
    ).toEqual({
      error: 'invalid_blocks',
      messages: ['[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]'],
    });
  });

  it('refuses a message whose blocks hold more than 12,000 characters in all, as Slack does', async () => {
    const sections = (each: number) =>
      Array.from({ length: 5 }, () => ({
        type: 'section',
        text: { type: 'mrkdwn', text: 'x'.repeat(each) },
      }));
    expect(
      (await slackError(slack.chat.postMessage({ channel: GENERAL, text: 'x', blocks: sections(2500) })))
        .error,
    ).toBe('msg_blocks_too_long');
    await expect(
      slack.chat.postMessage({ channel: GENERAL, text: 'x', blocks: sections(2000) }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('threads replies under their parent, counting them, and files a reply to a reply under the root', async () => {
    const parent = await slack.chat.postMessage({ channel: GENERAL, text: 'card' });
    const reply = await slack.chat.postMessage({ channel: GENERAL, text: 'one', thread_ts: parent.ts ?? '' });
    await slack.chat.postMessage({ channel: GENERAL, text: 'two', thread_ts: reply.ts ?? '' });
    const root = workspace.message(GENERAL, parent.ts ?? '');
    expect(root).toMatchObject({ replyCount: 2, threadTs: parent.ts, replyUsers: ['U0PSBOT'] });
    expect(workspace.message(GENERAL, reply.ts ?? '')?.threadTs).toBe(parent.ts);
  });

  it('hands out increasing, unique timestamps even when the clock stands still', async () => {
    const first = await slack.chat.postMessage({ channel: GENERAL, text: '1' });
    const second = await slack.chat.postMessage({ channel: GENERAL, text: '2' });
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
  });
});

describe('chat.update', () => {
  it('changes a message in place and keeps its blocks when the update leaves them out', async () => {
    const posted = await slack.chat.postMessage({
      channel: GENERAL,
      text: 'Starting',
      blocks: [section('🟡')],
    });
    await slack.chat.update({ channel: GENERAL, ts: posted.ts ?? '', text: 'Ready' });
    expect(workspace.message(GENERAL, posted.ts ?? '')).toMatchObject({
      text: 'Ready',
      edited: true,
      blocks: [expect.objectContaining({ text: { type: 'mrkdwn', text: '🟡' } })],
    });
  });

  it('refuses an unknown message and a message a person wrote', async () => {
    expect((await slackError(slack.chat.update({ channel: GENERAL, ts: '1.000001', text: 'x' }))).error).toBe(
      'message_not_found',
    );
    const mine = workspace.post(GENERAL, { kind: 'user', userId: ADA }, { text: 'hi', blocks: [] });
    expect((await slackError(slack.chat.update({ channel: GENERAL, ts: mine.ts, text: 'x' }))).error).toBe(
      'cant_update_message',
    );
  });
});

describe('chat.postEphemeral', () => {
  it('shows the message to that person only', async () => {
    await slack.chat.postEphemeral({ channel: GENERAL, user: ADA, text: 'only for Ada' });
    expect(workspace.snapshotFor(ADA).ephemerals.map((m) => m.text)).toEqual(['only for Ada']);
    expect(workspace.snapshotFor(MAYA).ephemerals).toEqual([]);
    const change = changes.find((c) => c.type === 'ephemeral');
    expect(change && workspace.visibleTo(change, ADA)).toBe(true);
    expect(change && workspace.visibleTo(change, MAYA)).toBe(false);
  });

  it('refuses a person who is not in the conversation', async () => {
    expect(
      (await slackError(slack.chat.postEphemeral({ channel: 'D0MAYA', user: ADA, text: 'x' }))).error,
    ).toBe('user_not_in_channel');
  });
});

describe('views', () => {
  it('opens a modal for the person the trigger was issued to, once, within 3 seconds', async () => {
    const trigger = grants.issueTrigger(ADA);
    const answer = await slack.views.open({ trigger_id: trigger, view: modal('Link Paperspace') });
    expect(answer.view).toMatchObject({
      type: 'modal',
      title: { text: 'Link Paperspace' },
      root_view_id: answer.view?.id,
    });
    expect(views.modals(ADA).map((v) => v.id)).toEqual([answer.view?.id]);
    expect((await slackError(slack.views.open({ trigger_id: trigger, view: modal('Again') }))).error).toBe(
      'invalid_trigger_id',
    );
    const late = grants.issueTrigger(ADA);
    clock.advance(3_001);
    expect((await slackError(slack.views.open({ trigger_id: late, view: modal('Late') }))).error).toBe(
      'expired_trigger_id',
    );
  });

  it('refuses a modal with inputs but no submit button, and a title over 24 characters', async () => {
    const input = {
      type: 'input',
      block_id: 'name',
      label: { type: 'plain_text', text: 'Name' },
      element: { type: 'plain_text_input', action_id: 'name_input' },
    };
    expect(
      await slackError(
        slack.views.open({
          trigger_id: grants.issueTrigger(ADA),
          view: { ...modal('Create'), blocks: [input] },
        }),
      ),
    ).toEqual({
      error: 'invalid_arguments',
      messages: ['[ERROR] must be provided when the view has input blocks [json-pointer:/view/submit]'],
    });
    expect(
      (
        await slackError(
          slack.views.open({ trigger_id: grants.issueTrigger(ADA), view: modal('x'.repeat(25)) }),
        )
      ).messages,
    ).toEqual(['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]']);
  });

  it('stacks pushed modals up to Slack’s three', async () => {
    const first = await slack.views.open({ trigger_id: grants.issueTrigger(ADA), view: modal('One') });
    const second = await slack.views.push({ trigger_id: grants.issueTrigger(ADA), view: modal('Two') });
    await slack.views.push({ trigger_id: grants.issueTrigger(ADA), view: modal('Three') });
    expect(second.view).toMatchObject({ previous_view_id: first.view?.id, root_view_id: first.view?.id });
    expect(
      (await slackError(slack.views.push({ trigger_id: grants.issueTrigger(ADA), view: modal('Four') })))
        .error,
    ).toBe('push_limit_reached');
  });

  it('updates a view in place, by id or external_id, and refuses a stale hash', async () => {
    const opened = await slack.views.open({
      trigger_id: grants.issueTrigger(ADA),
      view: modal('Checking…', { external_id: 'login-U0ADA' }),
    });
    const updated = await slack.views.update({ view_id: opened.view?.id ?? '', view: modal('Linked') });
    expect(updated.view?.id).toBe(opened.view?.id);
    expect(updated.view?.hash).not.toBe(opened.view?.hash);
    expect(
      (
        await slackError(
          slack.views.update({ view_id: opened.view?.id ?? '', hash: opened.view?.hash, view: modal('x') }),
        )
      ).error,
    ).toBe('hash_conflict');
    await slack.views.update({
      external_id: 'login-U0ADA',
      view: modal('Again', { external_id: 'login-U0ADA' }),
    });
    expect(views.modals(ADA)[0]?.view.title).toEqual({ type: 'plain_text', text: 'Again' });
    expect((await slackError(slack.views.update({ view_id: 'V404', view: modal('x') }))).error).toBe(
      'not_found',
    );
  });

  it('publishes a Home tab per person and refuses a modal there', async () => {
    await slack.views.publish({
      user_id: MAYA,
      view: { type: 'home', blocks: [section('Maya’s machines')] },
    });
    expect(views.home(MAYA)?.view.blocks).toEqual([expect.objectContaining({ type: 'section' })]);
    expect(views.home(ADA)).toBeUndefined();
    expect((await slackError(slack.views.publish({ user_id: MAYA, view: modal('x') as never }))).error).toBe(
      'invalid_arguments',
    );
  });
});

describe('users.info and conversations.open', () => {
  it('reports the browser’s time zone and its offset for every person', async () => {
    workspace.setTimeZone('Asia/Tokyo');
    const answer = await slack.users.info({ user: ADA });
    expect(answer.user).toMatchObject({
      id: ADA,
      real_name: 'Ada Park',
      tz: 'Asia/Tokyo',
      tz_offset: 9 * 3600,
    });
    expect((await slackError(slack.users.info({ user: 'U0NOBODY' }))).error).toBe('user_not_found');
  });

  it('opens the app’s DM with one person', async () => {
    expect((await slack.conversations.open({ users: ADA })).channel?.id).toBe('D0ADA');
  });
});

describe('response_url', () => {
  const post = (id: string, body: Record<string, unknown>) =>
    fetch(`${url}/response-url/${id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers a command ephemerally unless the app asks for in_channel', async () => {
    const id = grants.issueResponseUrl({ userId: ADA, channel: GENERAL, source: { kind: 'command' } });
    expect((await post(id, { text: 'just you' })).status).toBe(200);
    expect((await post(id, { text: 'everyone', response_type: 'in_channel' })).status).toBe(200);
    expect(workspace.snapshotFor(ADA).ephemerals.map((m) => m.text)).toEqual(['just you']);
    expect(workspace.snapshotFor(MAYA).messages.map((m) => m.text)).toEqual(['everyone']);
  });

  it('replaces or deletes the clicked message when asked, ephemeral or not', async () => {
    const ephemeral = workspace.postEphemeral(GENERAL, ADA, { kind: 'bot' }, { text: 'list', blocks: [] });
    const onEphemeral = grants.issueResponseUrl({
      userId: ADA,
      channel: GENERAL,
      source: { kind: 'message', ts: ephemeral.ts, ephemeral: true },
    });
    await post(onEphemeral, { replace_original: true, text: 'Posted the card in #general.' });
    expect(workspace.ephemeral(ADA, ephemeral.ts)?.text).toBe('Posted the card in #general.');

    const card = workspace.post(GENERAL, { kind: 'bot' }, { text: 'card', blocks: [] });
    const onCard = grants.issueResponseUrl({
      userId: ADA,
      channel: GENERAL,
      source: { kind: 'message', ts: card.ts, ephemeral: false },
    });
    await post(onCard, { delete_original: true });
    expect(workspace.message(GENERAL, card.ts)).toBeUndefined();
  });

  it('takes five posts in thirty minutes, then answers used_url or expired_url', async () => {
    const id = grants.issueResponseUrl({ userId: ADA, channel: GENERAL, source: { kind: 'command' } });
    for (let use = 1; use <= 5; use += 1)
      expect((await post(id, { text: `answer ${use}` })).status).toBe(200);
    const sixth = await post(id, { text: 'one too many' });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: 'used_url' });

    const later = grants.issueResponseUrl({ userId: ADA, channel: GENERAL, source: { kind: 'command' } });
    clock.advance(30 * 60_000 + 1);
    expect(await (await post(later, { text: 'too late' })).json()).toEqual({
      ok: false,
      error: 'expired_url',
    });
  });

  it('refuses a post without text or blocks, as Slack does', async () => {
    const id = grants.issueResponseUrl({ userId: ADA, channel: GENERAL, source: { kind: 'command' } });
    const response = await post(id, { response_type: 'ephemeral' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'no_text' });
  });
});

describe('functions.completeSuccess and completeError', () => {
  const run = () => functions.execute({ callbackId: 'stop_machine', inputs: { machine: 'gpu-1' }, by: ADA });
  const stopped = { machine_id: 'ps1', machine_name: 'gpu-1', state: 'off' };

  it("take a run's workflow token beside the bot token, end the run once, and say so", async () => {
    const event = run();
    const asWorkflow = new WebClient(event.bot_access_token, {
      slackApiUrl: `${url}/api/`,
      retryConfig: { retries: 0 },
    });
    await asWorkflow.functions.completeSuccess({
      function_execution_id: event.function_execution_id,
      outputs: stopped,
    });
    expect(functions.execution(event.function_execution_id)).toEqual({
      state: 'completed',
      outputs: stopped,
    });
    expect(runsEnded).toEqual([event.function_execution_id]);
    const again = await slackError(
      slack.functions.completeError({ function_execution_id: event.function_execution_id, error: 'late' }),
    );
    expect(again.error).toBe('execution_not_in_running_state');
    expect(runsEnded).toHaveLength(1);
  });

  it('refuse outputs missing a required output, an unknown run, an empty error and a made-up token', async () => {
    const event = run();
    const missing = await slackError(
      slack.functions.completeSuccess({ function_execution_id: event.function_execution_id, outputs: {} }),
    );
    expect(missing.error).toBe('parameter_validation_failed');
    expect(functions.execution(event.function_execution_id)).toEqual({ state: 'running' });
    const unknown = await slackError(
      slack.functions.completeError({ function_execution_id: 'Fx9', error: 'x' }),
    );
    expect(unknown.error).toBe('function_execution_not_found');
    const empty = await slackError(
      slack.functions.completeError({ function_execution_id: event.function_execution_id, error: '' }),
    );
    expect(empty.error).toBe('invalid_arguments');
    const forged = new WebClient('xwfp-made-up', { slackApiUrl: `${url}/api/`, retryConfig: { retries: 0 } });
    const refused = await slackError(
      forged.functions.completeError({ function_execution_id: event.function_execution_id, error: 'x' }),
    );
    expect(refused.error).toBe('invalid_auth');
    expect(runsEnded).toEqual([]);
  });
});

describe('chat.unfurl', () => {
  const LINK = 'https://console.paperspace.com/machines/psada001';
  /** Ada posts a message with the link, and Slack tells the app (link_shared). */
  const shared = () => {
    const posted = workspace.post(GENERAL, { kind: 'user', userId: ADA }, { text: `<${LINK}>`, blocks: [] });
    return unfurls.share({ channel: GENERAL, user: ADA, urls: [LINK], ts: posted.ts });
  };

  it("takes an unfurl of a shared message's link, by channel and ts or by unfurl_id, with Slack's block ids", async () => {
    const event = shared();
    const byTs = await slack.chat.unfurl({
      channel: GENERAL,
      ts: String(event.message_ts),
      unfurls: { [LINK]: { blocks: [section('*ada-workstation* · Ready')] } },
    });
    expect(byTs.ok).toBe(true);
    await slack.chat.unfurl({
      unfurl_id: String(event.unfurl_id),
      source: 'conversations_history',
      unfurls: { [LINK]: { blocks: [section('*ada-workstation* · Off')] } },
    });
    expect(unfurled.map(({ given }) => Object.keys(given))).toEqual([[LINK], [LINK]]);
    const [block] = unfurled[1]?.given[LINK]?.blocks ?? [];
    expect(block).toMatchObject({ text: { text: '*ada-workstation* · Off' } });
    expect((block as { block_id?: string }).block_id).toBeTruthy();
  });

  it('refuses a message the app was not told of, a URL not in it and blocks beyond Slack’s rules', async () => {
    const event = shared();
    const unshared = workspace.post(
      GENERAL,
      { kind: 'user', userId: MAYA },
      { text: `<${LINK}>`, blocks: [] },
    );
    const card = { [LINK]: { blocks: [section('card')] } };
    expect(
      (await slackError(slack.chat.unfurl({ channel: GENERAL, ts: unshared.ts, unfurls: card }))).error,
    ).toBe('cannot_find_message');
    const other = { 'https://console.paperspace.com/machines/psother1': { blocks: [section('card')] } };
    expect(
      (
        await slackError(
          slack.chat.unfurl({ channel: GENERAL, ts: String(event.message_ts), unfurls: other }),
        )
      ).error,
    ).toBe('cannot_unfurl_url');
    const longHeader = {
      [LINK]: { blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] },
    };
    expect(
      await slackError(
        slack.chat.unfurl({ channel: GENERAL, ts: String(event.message_ts), unfurls: longHeader as never }),
      ),
    ).toEqual({
      error: 'invalid_blocks',
      messages: ['[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]'],
    });
    expect(unfurled).toEqual([]);
  });
});

describe('posting pace', () => {
  it('takes a burst of 5 posts in a channel, then answers HTTP 429 with Retry-After as the fake Slack does; other channels go on', async () => {
    // As the bot's client is (slack/app.ts): a 429 is the caller's to wait out, not the client's.
    const bot = new WebClient(BOT_TOKEN, {
      slackApiUrl: `${url}/api/`,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    for (let n = 1; n <= 5; n += 1) await bot.chat.postMessage({ channel: GENERAL, text: `post ${n}` });

    await expect(bot.chat.postMessage({ channel: GENERAL, text: 'post 6' })).rejects.toMatchObject({
      code: webApi.ErrorCode.RateLimitedError,
      retryAfter: 1,
    });
    // Refused before it was looked at: the channel shows five posts, and another channel takes one.
    expect(workspace.snapshotFor(ADA).messages.filter((m) => m.channel === GENERAL)).toHaveLength(5);
    await expect(bot.chat.postMessage({ channel: ADA, text: 'in the DM' })).resolves.toMatchObject({
      ok: true,
    });
    clock.advance(1000);
    await expect(bot.chat.postMessage({ channel: GENERAL, text: 'a second later' })).resolves.toMatchObject({
      ok: true,
    });
  });
});
