import { webApi } from '@slack/bolt';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createBoltLogger } from '../../src/slack/bolt-logger.js';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';
import { captureLogs } from './log-capture.js';

const TOKEN = 'xoxb-fake-slack-test';
const JSON_HEADERS = { 'content-type': 'application/json' };

let slack: FakeSlack;
let client: webApi.WebClient;

function newClient(token: string | undefined): webApi.WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
    logger: createBoltLogger(captureLogs().logger),
  });
}

async function rawCall(method: string, body: string, contentType: string): Promise<Record<string, unknown>> {
  const response = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${TOKEN}` },
    body,
  });
  return (await response.json()) as Record<string, unknown>;
}

beforeEach(async () => {
  slack ??= await startFakeSlack({ users: [{ id: 'U0TOKYO', tz: 'Asia/Tokyo', tz_offset: 32400 }] });
  slack.reset();
  client = newClient(TOKEN);
});

afterAll(async () => {
  await slack.close();
});

describe('startFakeSlack', () => {
  it("records the Web API client's form-encoded calls with JSON-valued arguments parsed back", async () => {
    await client.chat.postMessage({ channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] });

    expect(slack.calls()).toEqual([
      {
        method: 'chat.postMessage',
        args: { channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] },
        token: TOKEN,
        contentType: 'application/x-www-form-urlencoded',
        answer: expect.objectContaining({ ok: true, channel: 'C1' }),
      },
    ]);
  });

  it('records JSON-encoded calls the same way', async () => {
    const answer = await rawCall(
      'chat.postMessage',
      JSON.stringify({ channel: 'C1', text: 'hi', blocks: [{ type: 'divider' }] }),
      'application/json; charset=utf-8',
    );

    expect(answer.ok).toBe(true);
    expect(slack.calls('chat.postMessage')[0]?.args).toEqual({
      channel: 'C1',
      text: 'hi',
      blocks: [{ type: 'divider' }],
    });
  });

  it('hands out unique, increasing message timestamps and DM channels for user ids', async () => {
    const first = await client.chat.postMessage({ channel: 'C1', text: 'one' });
    const second = await client.chat.postMessage({ channel: 'U0ALICE', text: 'two' });
    const ephemeral = await client.chat.postEphemeral({ channel: 'C1', user: 'U0ALICE', text: 'three' });

    expect(first.channel).toBe('C1');
    expect(second.channel).toBe('D0ALICE');
    expect(Number(second.ts)).toBeGreaterThan(Number(first.ts));
    expect(Number(ephemeral.message_ts)).toBeGreaterThan(Number(second.ts));
  });

  it('answers like Slack for auth.test, views, users.info and conversations.open', async () => {
    const auth = await client.auth.test();
    const opened = await client.views.open({
      trigger_id: slack.issueTrigger(),
      view: {
        type: 'modal',
        callback_id: 'login_modal',
        title: { type: 'plain_text', text: 'Login' },
        blocks: [],
      },
    });
    const updated = await client.views.update({
      view_id: opened.view?.id ?? 'missing',
      view: { type: 'modal', title: { type: 'plain_text', text: 'Login' }, blocks: [] },
    });
    const published = await client.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [] } });
    const tokyo = await client.users.info({ user: 'U0TOKYO' });
    const someone = await client.users.info({ user: 'U0ELSE' });
    const dm = await client.conversations.open({ users: 'U0ALICE' });

    expect(auth).toMatchObject({ user_id: slack.botUserId, bot_id: slack.botId, team_id: slack.teamId });
    expect(opened.view).toMatchObject({ callback_id: 'login_modal', type: 'modal' });
    expect(updated.view?.id).toBe(opened.view?.id);
    expect(published.view?.type).toBe('home');
    expect(tokyo.user).toMatchObject({ tz: 'Asia/Tokyo', tz_offset: 32400, is_bot: false });
    expect(someone.user).toMatchObject({ tz: 'UTC', tz_offset: 0 });
    expect(dm.channel?.id).toBe('D0ALICE');
  });

  it('refuses what Slack refuses: unknown methods, missing tokens, too many blocks', async () => {
    const unknown = client.apiCall('machines.teleport', {});
    const anonymous = newClient(undefined).chat.postMessage({ channel: 'C1', text: 'x' });
    const tooLong = client.chat.postMessage({
      channel: 'C1',
      text: 'x',
      blocks: Array(51).fill({ type: 'divider' }),
    });

    await expect(unknown).rejects.toMatchObject({ data: { error: 'unknown_method' } });
    await expect(anonymous).rejects.toMatchObject({ data: { error: 'not_authed' } });
    await expect(tooLong).rejects.toMatchObject({ data: { error: 'invalid_blocks' } });
    expect(slack.calls('machines.teleport')).toHaveLength(1);
  });

  it('fails the next calls of a method on request, then answers normally again', async () => {
    slack.fail('chat.update', 'cant_update_message', { times: 2 });
    slack.showMessage('C1', '1.2');

    const update = () => client.chat.update({ channel: 'C1', ts: '1.2', text: 'x' });

    await expect(update()).rejects.toMatchObject({ data: { error: 'cant_update_message' } });
    await expect(update()).rejects.toMatchObject({ data: { error: 'cant_update_message' } });
    await expect(update()).resolves.toMatchObject({ ok: true, ts: '1.2' });
  });

  it('records POSTs to response_urls per id', async () => {
    await fetch(slack.responseUrl('cmd 1'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'in_channel', text: 'done' }),
    });

    expect(slack.responses('cmd 1')).toEqual([{ response_type: 'in_channel', text: 'done' }]);
    expect(await slack.waitForResponse('cmd 1')).toEqual({ response_type: 'in_channel', text: 'done' });
    expect(slack.responses('other')).toEqual([]);
  });

  it('waits for a call that arrives later', async () => {
    setTimeout(() => void client.chat.postMessage({ channel: 'C9', text: 'later' }), 30);

    const call = await slack.waitFor((recorded) => recorded.args.channel === 'C9');

    expect(call.args.text).toBe('later');
  });

  it('fails a wait with a dump of everything recorded', async () => {
    await client.chat.postMessage({ channel: 'C1', text: 'the only call' });

    await expect(slack.waitFor('views.open', { timeoutMs: 50 })).rejects.toThrow(
      /no views\.open call within 50 ms\. Recorded:\n {2}chat\.postMessage \{"channel":"C1","text":"the only call"\}/,
    );
  });

  it('refuses a token other than the configured bot token', async () => {
    const strict = await startFakeSlack({ botToken: 'xoxb-the-right-one' });
    try {
      const wrong = new webApi.WebClient('xoxb-wrong', {
        slackApiUrl: strict.apiUrl,
        retryConfig: { retries: 0 },
      });
      const right = new webApi.WebClient('xoxb-the-right-one', { slackApiUrl: strict.apiUrl });

      await expect(wrong.auth.test()).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
      await expect(right.auth.test()).resolves.toMatchObject({ ok: true });
    } finally {
      await strict.close();
    }
  });

  describe('script', () => {
    it('answers a Slack error code only for the scripted channel, as often as asked', async () => {
      slack.script('chat.postMessage', {
        channel: 'CGENERAL',
        error: 'posting_to_general_channel_denied',
        times: 2,
      });

      await expect(client.chat.postMessage({ channel: 'CGENERAL', text: 'a' })).rejects.toMatchObject({
        data: { error: 'posting_to_general_channel_denied' },
      });
      await expect(client.chat.postMessage({ channel: 'C1', text: 'b' })).resolves.toMatchObject({
        ok: true,
      });
      await expect(client.chat.postMessage({ channel: 'CGENERAL', text: 'c' })).rejects.toThrow();
      await expect(client.chat.postMessage({ channel: 'CGENERAL', text: 'd' })).resolves.toMatchObject({
        ok: true,
      });
    });

    it('answers an HTTP status, with Retry-After on a 429', async () => {
      slack.script('chat.update', { status: 429, retryAfterSeconds: 7 });
      const rejecting = new webApi.WebClient(TOKEN, {
        slackApiUrl: slack.apiUrl,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
      });

      await expect(rejecting.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).rejects.toMatchObject({
        code: webApi.ErrorCode.RateLimitedError,
        retryAfter: 7,
      });

      slack.script('chat.update', { status: 500 });
      await expect(client.chat.update({ channel: 'C1', ts: '1.2', text: 'x' })).rejects.toMatchObject({
        code: webApi.ErrorCode.HTTPError,
        statusCode: 500,
      });
    });

    it('delays an answer, or never gives one, while the call still takes effect', async () => {
      slack.script('chat.postMessage', { delayMs: 150 });
      const started = Date.now();
      await client.chat.postMessage({ channel: 'C1', text: 'slow' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);

      slack.script('chat.postMessage', { hang: true });
      const impatient = new webApi.WebClient(TOKEN, {
        slackApiUrl: slack.apiUrl,
        retryConfig: { retries: 0 },
        timeout: 100,
      });
      await expect(impatient.chat.postMessage({ channel: 'C2', text: 'lost?' })).rejects.toMatchObject({
        code: webApi.ErrorCode.RequestError,
      });
      expect(slack.calls('chat.postMessage').map((call) => call.args.channel)).toEqual(['C1', 'C2']);
    });

    it('refuses a response_url post with a status', async () => {
      slack.script('response_url', { channel: 'r1', status: 404 });

      const refused = await fetch(slack.responseUrl('r1'), {
        method: 'POST',
        headers: JSON_HEADERS,
        body: '{"text":"x"}',
      });
      const accepted = await fetch(slack.responseUrl('r1'), {
        method: 'POST',
        headers: JSON_HEADERS,
        body: '{"text":"y"}',
      });

      expect([refused.status, accepted.status]).toEqual([404, 200]);
      expect(slack.responses('r1').map((post) => post.text)).toEqual(['y']);
    });
  });
});
