import { randomBytes } from 'node:crypto';
import type { App, CustomRoute } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSlackApp, type HttpSlackAppOptions, type SlackApp } from '../../src/slack/app.js';
import { ActionId, CallbackId, SLASH_COMMAND } from '../../src/slack/ids.js';
import { createMetadataSeal } from '../../src/slack/metadata-seal.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { captureLogs, LEVEL, type LogCapture } from '../support/log-capture.js';
import { createSlackRequests, type SlackRequests, send, slackSignature } from '../support/slack-requests.js';

const SIGNING_SECRET = 'test-signing-secret';
const BOT_TOKEN = 'xoxb-1111-2222-bot-token-under-test';
const APP_TOKEN = 'xapp-1-A0FAKE-3333-app-token-under-test';

let slack: FakeSlack;
let requests: SlackRequests;
let logs: LogCapture;
let running: SlackApp[] = [];

beforeAll(async () => {
  slack = await startFakeSlack();
});

afterAll(async () => {
  await slack.close();
});

beforeEach(() => {
  slack.reset();
  logs = captureLogs('debug');
  requests = createSlackRequests({ signingSecret: SIGNING_SECRET, responseUrl: slack.responseUrl, slack });
});

afterEach(async () => {
  await Promise.all(running.map((bot) => bot.stop()));
  running = [];
});

/** The key the apps of this file seal private_metadata with. */
const METADATA_KEY = randomBytes(32);

async function startBot(
  register: (app: App) => void,
  extra: Partial<HttpSlackAppOptions> = {},
): Promise<{ baseUrl: string; bot: SlackApp }> {
  const bot = createSlackApp({
    metadataKeys: [METADATA_KEY],
    mode: 'http',
    botToken: BOT_TOKEN,
    signingSecret: SIGNING_SECRET,
    slackApiUrl: slack.apiUrl,
    logger: logs.logger,
    port: 0,
    register,
    ...extra,
  });
  running.push(bot);
  const { port } = await bot.start();
  return { baseUrl: `http://127.0.0.1:${port}`, bot };
}

/** A bot whose only listener notes that a /ps command reached it: whether one did, after a refusal. */
async function startBotNotingCommands(): Promise<{ baseUrl: string; handled: () => boolean }> {
  let handled = false;
  const { baseUrl } = await startBot((app) => {
    app.command(SLASH_COMMAND, async ({ ack }) => {
      handled = true;
      await ack();
    });
  });
  return { baseUrl, handled: () => handled };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('createSlackApp in HTTP mode', () => {
  it('acks a slash command with 200 and delivers respond() to the response_url', async () => {
    const { baseUrl } = await startBot((app) => {
      app.command(SLASH_COMMAND, async ({ ack, respond, command }) => {
        await ack();
        await respond({ response_type: 'ephemeral', text: `you asked for ${command.text}` });
      });
    });

    const request = requests.slashCommand({ text: 'list state=ready' });
    const response = await send(baseUrl, request);

    expect(response.status).toBe(200);
    const posted = await slack.waitForResponse(request.responseUrlId ?? '');
    expect(posted).toMatchObject({ response_type: 'ephemeral', text: 'you asked for list state=ready' });
  });

  it('rejects a request with a bad signature with 401 and runs no handler', async () => {
    const { baseUrl, handled } = await startBotNotingCommands();

    const response = await send(baseUrl, requests.slashCommand({ text: 'list' }, { badSignature: true }));

    expect(response.status).toBe(401);
    expect(handled()).toBe(false);
  });

  it('rejects a request signed 6 minutes ago with 401 and runs no handler', async () => {
    const { baseUrl, handled } = await startBotNotingCommands();

    const response = await send(baseUrl, requests.slashCommand({ text: 'list' }, { ageSeconds: 6 * 60 }));

    expect(response.status).toBe(401);
    expect(handled()).toBe(false);
  });

  it('rejects a request without signature headers with 401', async () => {
    const { baseUrl } = await startBot(() => {});
    const request = requests.slashCommand({ text: 'list' });

    const response = await send(baseUrl, {
      ...request,
      headers: { 'content-type': request.headers['content-type'] ?? '' },
    });

    expect(response.status).toBe(401);
  });

  it.each([
    ['a signature of an unknown version', (signature: string) => signature.replace(/^v0=/, 'v1=')],
    ['a signature cut short', (signature: string) => signature.slice(0, 20)],
    ['an empty signature', () => ''],
  ])('rejects a request with %s with 401, runs no handler and logs why', async (_case, alter) => {
    const { baseUrl, handled } = await startBotNotingCommands();
    const request = requests.slashCommand({ text: 'list' });
    const signature = request.headers['x-slack-signature'] ?? '';

    const response = await send(baseUrl, {
      ...request,
      headers: { ...request.headers, 'x-slack-signature': alter(signature) },
    });

    expect(response.status).toBe(401);
    expect(handled()).toBe(false);
    const refusal = logs.lines().find((line) => line.msg === 'refused a request to the Slack endpoint');
    expect(refusal).toMatchObject({ status: 401, reason: expect.stringMatching(/signature/) });
    expect(JSON.stringify(logs.lines())).not.toContain(SIGNING_SECRET);
  });

  it('rejects a request whose timestamp header is not a number with 401', async () => {
    const { baseUrl } = await startBot(() => {});
    const request = requests.slashCommand({ text: 'list' });

    const response = await send(baseUrl, {
      ...request,
      headers: { ...request.headers, 'x-slack-request-timestamp': 'yesterday' },
    });

    expect(response.status).toBe(401);
  });

  it("answers Slack's unsigned ssl_check with 200 and dispatches nothing smuggled beside it", async () => {
    const { baseUrl, handled } = await startBotNotingCommands();
    const command = requests.slashCommand({ text: 'list' });
    const payload = JSON.stringify(Object.fromEntries(new URLSearchParams(command.body)));

    const response = await send(baseUrl, {
      path: command.path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `ssl_check=1&token=x&payload=${encodeURIComponent(payload)}`,
      payload: {},
    });

    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(handled()).toBe(false);
  });

  it('routes a block action to its action handler with the clicked value and the clicking user', async () => {
    const seen: Array<{ value: string | undefined; userId: string; messageTs: string | undefined }> = [];
    const { baseUrl } = await startBot((app) => {
      app.action(ActionId.machineStart, async ({ ack, action, body, respond }) => {
        await ack();
        seen.push({
          value: action.type === 'button' ? action.value : undefined,
          userId: body.user.id,
          messageTs: body.type === 'block_actions' ? body.message?.ts : undefined,
        });
        await respond({ replace_original: true, text: 'Starting gpu-1' });
      });
      app.action(ActionId.machineStop, async ({ ack }) => {
        await ack();
        throw new Error('the stop handler must not see a start click');
      });
    });

    const request = requests.blockAction({
      actionId: ActionId.machineStart,
      value: 'ps123abc',
      userId: 'U0CLICKER',
      message: { ts: '1700000000.000200' },
    });
    const response = await send(baseUrl, request);

    expect(response.status).toBe(200);
    const posted = await slack.waitForResponse(request.responseUrlId ?? '');
    expect(posted).toMatchObject({ replace_original: true, text: 'Starting gpu-1' });
    expect(seen).toEqual([{ value: 'ps123abc', userId: 'U0CLICKER', messageTs: '1700000000.000200' }]);
  });

  it("returns the view submission's ack body, so response_action errors reach Slack", async () => {
    const submitted: Array<{ metadata: string; key: string | null | undefined }> = [];
    const { baseUrl } = await startBot((app) => {
      app.view(CallbackId.login, async ({ ack, view }) => {
        submitted.push({ metadata: view.private_metadata, key: view.state.values.api_key?.value?.value });
        await ack({ response_action: 'errors', errors: { api_key: 'Paperspace refused this key.' } });
      });
    });

    const response = await send(
      baseUrl,
      requests.viewSubmission({
        callbackId: CallbackId.login,
        values: { api_key: { value: 'not-a-real-key' } },
        // Sealed as the bot seals what it sends in a view; the listener reads it opened.
        privateMetadata: createMetadataSeal([METADATA_KEY]).seal('{"channel":"C0CHANNEL"}'),
      }),
    );

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      response_action: 'errors',
      errors: { api_key: 'Paperspace refused this key.' },
    });
    expect(submitted).toEqual([{ metadata: '{"channel":"C0CHANNEL"}', key: 'not-a-real-key' }]);
  });

  it('sends Web API calls from handlers to slackApiUrl with the bot token', async () => {
    const { baseUrl } = await startBot((app) => {
      app.command(SLASH_COMMAND, async ({ ack, client, command }) => {
        await ack();
        await client.chat.postMessage({
          channel: command.channel_id,
          text: 'gpu-1 is ready',
          blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*gpu-1* is ready' } }],
        });
      });
    });

    await send(baseUrl, requests.slashCommand({ text: 'show gpu-1', channelId: 'C0OPS' }));

    const call = await slack.waitFor('chat.postMessage');
    expect(call.token).toBe(BOT_TOKEN);
    expect(call.args).toMatchObject({
      channel: 'C0OPS',
      text: 'gpu-1 is ready',
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: '*gpu-1* is ready' } }],
    });
  });

  it('verifies the bot token with one auth.test at start and not again per request', async () => {
    const { baseUrl } = await startBot((app) => {
      app.command(SLASH_COMMAND, async ({ ack }) => {
        await ack();
      });
    });
    expect(slack.calls('auth.test')).toHaveLength(1);
    expect(slack.calls('auth.test')[0]?.token).toBe(BOT_TOKEN);

    await send(baseUrl, requests.slashCommand({ text: 'list' }));
    await send(baseUrl, requests.slashCommand({ text: 'list' }));

    expect(slack.calls('auth.test')).toHaveLength(1);
  });

  it('fails start() with a message naming the problem when Slack refuses the bot token', async () => {
    slack.fail('auth.test', 'invalid_auth');
    const bot = createSlackApp({
      metadataKeys: [METADATA_KEY],
      mode: 'http',
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      slackApiUrl: slack.apiUrl,
      logger: logs.logger,
      port: 0,
      register: () => {},
    });

    const failure = await bot.start().then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toBe('Slack refused the bot token (auth.test: invalid_auth)');
    expect((failure as Error).message).not.toContain(BOT_TOKEN);
  });

  it('answers the url_verification challenge', async () => {
    const { baseUrl } = await startBot(() => {});

    const response = await send(
      baseUrl,
      requests.urlVerification('3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P'),
    );

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
  });

  it('answers a command as soon as ack() is called while the handler keeps working', async () => {
    const slowApi = deferred();
    let handlerFinished = false;
    const { baseUrl } = await startBot((app) => {
      app.command(SLASH_COMMAND, async ({ ack }) => {
        await ack();
        await slowApi.promise;
        handlerFinished = true;
      });
    });

    const response = await send(baseUrl, requests.slashCommand({ text: 'start gpu-1' }));

    expect(response.status).toBe(200);
    expect(handlerFinished).toBe(false);
    slowApi.resolve();
    await until(() => handlerFinished);
  });

  it('acknowledges an app_home_opened event and runs its handler', async () => {
    const { baseUrl } = await startBot((app) => {
      app.event('app_home_opened', async ({ event, client }) => {
        await client.views.publish({ user_id: event.user, view: { type: 'home', blocks: [] } });
      });
    });

    const response = await send(baseUrl, requests.event({ type: 'app_home_opened', user: 'U0VISITOR' }));

    expect(response.status).toBe(200);
    const call = await slack.waitFor('views.publish');
    expect(call.args).toMatchObject({ user_id: 'U0VISITOR', view: { type: 'home' } });
  });

  it('serves customRoutes beside the Slack endpoint and 404s unknown paths', async () => {
    const healthz: CustomRoute = {
      path: '/healthz',
      method: 'GET',
      handler: (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('ok');
      },
    };
    const { baseUrl } = await startBot(() => {}, { customRoutes: [healthz] });

    const health = await fetch(`${baseUrl}/healthz`);
    const unknown = await fetch(`${baseUrl}/nope`);

    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok');
    expect(unknown.status).toBe(404);
  });
});

describe('createSlackApp error handling', () => {
  it('answers 500 at once when a handler fails before ack, logs it without secrets, and keeps serving', async () => {
    const { baseUrl } = await startBot((app) => {
      app.command(SLASH_COMMAND, async ({ ack, command }) => {
        if (command.text.startsWith('explode')) {
          // Shaped like an HTTP library's error: the failed request, with its Authorization header, rides along.
          throw Object.assign(new Error('upstream refused the request'), {
            config: { headers: { Authorization: `Bearer ${BOT_TOKEN}` } },
          });
        }
        await ack();
      });
    });

    const startedAt = Date.now();
    const failed = await send(
      baseUrl,
      requests.slashCommand({ text: 'explode pasted-key-0123456789abcdef', userId: 'U0UNLUCKY' }),
    );
    const elapsedMs = Date.now() - startedAt;
    const next = await send(baseUrl, requests.slashCommand({ text: 'list' }));

    expect(failed.status).toBe(500);
    // Bolt's own fallback would answer only after its 3 s no-ack timer.
    expect(elapsedMs).toBeLessThan(2000);
    expect(next.status).toBe(200);
    const errorLines = logs.lines().filter((line) => line.level === LEVEL.error);
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatchObject({
      msg: 'Slack request failed',
      error: { type: 'Error', message: 'upstream refused the request' },
      request: { kind: 'command', command: SLASH_COMMAND, userId: 'U0UNLUCKY' },
    });
    expect(logs.text()).not.toContain(BOT_TOKEN);
    expect(logs.text()).not.toContain('pasted-key-0123456789abcdef');
  });

  it('logs a failure after ack exactly once while Slack still gets its 200', async () => {
    const { baseUrl } = await startBot((app) => {
      app.action(ActionId.machineStop, async ({ ack }) => {
        await ack();
        throw new Error('Paperspace timed out');
      });
    });

    const response = await send(
      baseUrl,
      requests.blockAction({ actionId: ActionId.machineStop, value: 'ps1' }),
    );

    expect(response.status).toBe(200);
    await until(() => logs.lines().some((line) => line.level === LEVEL.error));
    // Give a duplicate log line from the receiver the chance to appear before counting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const errorLines = logs.lines().filter((line) => line.level === LEVEL.error);
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatchObject({
      error: { message: 'Paperspace timed out' },
      request: { kind: 'block_actions', actionIds: [ActionId.machineStop] },
    });
  });

  it("forwards Bolt's own warnings to the pino logger but never its debug output", async () => {
    const { baseUrl } = await startBot((app) => {
      app.command(SLASH_COMMAND, async ({ ack }) => {
        await ack({ text: 'ok' });
      });
    });

    // Correctly signed, but not JSON: the guard leaves the body's parsing to Bolt, which warns.
    const timestamp = Math.floor(Date.now() / 1000);
    const malformed = '{"type": "event_callback",';
    await send(baseUrl, {
      path: '/slack/events',
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, malformed),
      },
      body: malformed,
      payload: {},
    });
    await send(baseUrl, requests.slashCommand({ text: 'list' }));

    const boltLines = logs.lines().filter((line) => line.component === 'slack-bolt');
    expect(boltLines).toContainEqual(
      expect.objectContaining({
        level: LEVEL.warn,
        msg: expect.stringContaining('Malformed request body'),
      }),
    );
    expect(boltLines.filter((line) => line.level < LEVEL.info)).toEqual([]);
  });
});

describe('createSlackApp in Socket Mode', () => {
  it('builds without touching the network', () => {
    createSlackApp({
      metadataKeys: [METADATA_KEY],
      mode: 'socket',
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      slackApiUrl: slack.apiUrl,
      logger: logs.logger,
      port: 0,
      register: (app) => {
        app.command(SLASH_COMMAND, async ({ ack }) => {
          await ack();
        });
      },
    });

    expect(slack.calls()).toEqual([]);
  });

  it('opens its connection through slackApiUrl with the app token and fails start() when refused', async () => {
    slack.fail('apps.connections.open', 'invalid_auth');
    const bot = createSlackApp({
      metadataKeys: [METADATA_KEY],
      mode: 'socket',
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      slackApiUrl: slack.apiUrl,
      logger: logs.logger,
      port: 0,
      register: () => {},
    });

    await expect(bot.start()).rejects.toThrow(
      'Slack refused the app token (apps.connections.open: invalid_auth)',
    );

    expect(slack.calls().map((call) => [call.method, call.token])).toEqual([
      ['auth.test', BOT_TOKEN],
      ['apps.connections.open', APP_TOKEN],
    ]);
    expect(logs.text()).not.toContain(APP_TOKEN);
  });
});

describe("the bot's own Web API calls", () => {
  it("go out together in a burst, past the queue of 100 that people's calls wait in, and hold none of them up", async () => {
    const { bot } = await startBot(() => {});
    slack.script('chat.postMessage', { delayMs: 1500, times: Number.POSITIVE_INFINITY });
    const background = bot.backgroundClient(BOT_TOKEN);

    let answered = 0;
    const burst = Array.from({ length: 300 }, (_, n) =>
      background.chat
        .postMessage({ channel: `C0BURST${n}`, text: `gpu-${n} is ready` })
        .then(() => (answered += 1)),
    );
    await until(() => slack.calls('chat.postMessage').length === 300, 1000);
    // A person's call meanwhile is answered at once, not after the burst.
    await bot.app.client.users.info({ user: 'U0SOMEONE' });

    expect(answered).toBe(0);
    await Promise.all(burst);
    expect(answered).toBe(300);
  });
});

describe('createSlackApp options', () => {
  it('refuses an HTTP-mode app without a signing secret', () => {
    expect(() =>
      createSlackApp({
        metadataKeys: [METADATA_KEY],
        mode: 'http',
        botToken: BOT_TOKEN,
        signingSecret: '',
        slackApiUrl: slack.apiUrl,
        logger: logs.logger,
        register: () => {},
      }),
    ).toThrow('createSlackApp: signingSecret is required in http mode');
  });

  it('refuses a Socket Mode app without an app token', () => {
    expect(() =>
      createSlackApp({
        metadataKeys: [METADATA_KEY],
        mode: 'socket',
        botToken: BOT_TOKEN,
        appToken: ' ',
        slackApiUrl: slack.apiUrl,
        logger: logs.logger,
        register: () => {},
      }),
    ).toThrow('createSlackApp: appToken is required in socket mode');
  });
});
