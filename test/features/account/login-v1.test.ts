// /ps login against Paperspace v1: the key says who it belongs to (GET /auth/session), so the form asks
// for neither an e-mail nor a GraphQL access token, and a team member is linked as themselves at once.
import { describe, expect, it } from 'vitest';
import { CallbackId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { slackUser, submitLogin, textOf } from './helpers.js';

const bot = useTestBot({ dialect: 'v1' });

describe('/ps login with a v1 key', () => {
  it('opens a form that asks only for the API key', async () => {
    const request = bot.requests.slashCommand({
      text: 'login',
      userId: USERS.sam.slackId,
    });
    await bot.send(request);
    const open = await bot.slack.waitFor('views.open');
    expect(open.answer?.ok).toBe(true);
    const view = textOf(open.args.view);
    expect(view).toContain(CallbackId.login);
    expect(view).toContain('api_key_input');
    expect(view).not.toContain('paperspace_email_input');
    expect(view).not.toContain('access_token_input');
  });

  it('links a team member as themselves, from the session, without an e-mail', async () => {
    const before = bot.emulator.state.requests().length;
    const response = await submitLogin(bot, USERS.sam.slackId, { apiKey: USERS.sam.apiKey });
    expect(response.body).toMatchObject({ response_action: 'update' });
    expect(textOf(response.body)).toContain('sam.rivera@orbital.example');
    expect(await bot.vault.account(slackUser('sam'))).toMatchObject({
      userId: 'u1sam',
      email: 'sam.rivera@orbital.example',
      teamId: 'te1orbit',
    });
    const asked = bot.emulator.state.requests().slice(before);
    expect(asked.map((entry) => `${entry.method} ${entry.path}`)).toEqual(['GET /v1/auth/session']);
  });

  it('answers /ps whoami without asking for a shared-drive access token, which v1 does not use', async () => {
    await submitLogin(bot, USERS.sam.slackId, { apiKey: USERS.sam.apiKey });
    const request = bot.requests.slashCommand({ text: 'whoami', userId: USERS.sam.slackId });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    const text = textOf(reply);
    expect(text).toContain('sam.rivera@orbital.example');
    expect(text).toContain('Shared drives: reached with this same key');
    expect(text).not.toContain('access token');
    expect(text).not.toContain('Access token');
  });

  it('refuses a key v1 answers with a null session as not valid, under the API key field, and keeps nothing', async () => {
    const response = await submitLogin(bot, USERS.ada.slackId, { apiKey: 'not-a-real-key-0001' });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: { api_key: expect.stringContaining('Paperspace does not know this API key') },
    });
    expect(textOf(response.body)).not.toContain('Try again');
    expect(await bot.vault.credentials(slackUser('ada'))).toBeUndefined();
    const [asked] = bot.emulator.state.requests().slice(-1);
    expect(asked).toMatchObject({ method: 'GET', path: '/v1/auth/session', status: 200 });
  });
});
