// The bot's PostgreSQL cut off behind a TCP proxy, as a network partition or a database restart
// would: every request is answered in words on its own surface, `/ps help` still answers, /readyz
// says why, and everything works again once the database is back.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ActionId, CallbackId } from '../../src/slack/ids.js';
import { createTestSchema, postgresSkipReason, type TestSchema } from '../store/postgres-test-database.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startTestBot, type TestBot, USERS } from '../support/test-bot.js';

const ADA = USERS.ada.slackId;
const UNREACHABLE = "I can't reach my database right now, so nothing was done. Try again in a minute.";

describe.skipIf(postgresSkipReason !== undefined)('with the database unreachable', () => {
  let schema: TestSchema;
  let proxy: TcpProxy;
  let bot: TestBot;

  beforeAll(async () => {
    schema = await createTestSchema();
    proxy = await startTcpProxy(schema.url);
    bot = await startTestBot({ databaseUrl: proxy.url });
    await bot.link('ada');
  });
  afterAll(async () => {
    proxy?.restore();
    await bot?.close();
    await proxy?.close();
    await schema?.drop();
  });
  beforeEach(() => {
    proxy.cut();
    bot.slack.reset();
    return () => proxy.restore();
  });

  it('a command is answered with a sentence, not an empty 503', async () => {
    const response = await bot.send(
      bot.requests.slashCommand({ text: 'list', userId: ADA, channelId: 'C0OPS' }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ response_type: 'ephemeral', text: `❌ ${UNREACHABLE}` });
  });

  it('/ps help still answers', async () => {
    const request = bot.requests.slashCommand({ text: 'help', userId: ADA, channelId: 'C0OPS' });
    const response = await bot.send(request);
    expect(response.status).toBe(200);
    const reply = JSON.stringify(
      response.body ?? (await bot.slack.waitForResponse(request.responseUrlId ?? '')),
    );
    expect(reply).toContain('/ps login');
    expect(reply).not.toContain("can't reach my database");
  });

  it('a click is answered privately where it was made', async () => {
    const request = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: '{"id":"psada001","name":"ada-render"}',
      userId: ADA,
      channelId: 'C0OPS',
    });
    expect((await bot.send(request)).status).toBe(200);
    const answer = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(answer).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer.text).toContain(UNREACHABLE);
  });

  it('a submitted form is answered over the form, which keeps what was typed', async () => {
    const response = await bot.send(
      bot.requests.viewSubmission({ callbackId: CallbackId.destroyMachine, userId: ADA, values: {} }),
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ response_action: 'push' });
    expect(JSON.stringify(response.body)).toContain("can't reach my database right now");
  });

  it('/readyz says the store cannot be reached', async () => {
    const ready = await bot.get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({
      status: 'unavailable',
      reason: expect.stringMatching(/store/),
    });
  });

  it('works again once the database is back', async () => {
    proxy.restore();
    const request = bot.requests.slashCommand({ text: 'list', userId: ADA, channelId: 'C0OPS' });
    const response = await bot.send(request);
    expect(response.status).toBe(200);
    const reply = JSON.stringify(
      response.body ?? (await bot.slack.waitForResponse(request.responseUrlId ?? '')),
    );
    expect(reply).toContain('ada-render');
    expect((await bot.get('/readyz')).status).toBe(200);
  });
});
