import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionId, CallbackId } from '../../../src/slack/ids.js';
import type { ApiCall, ResponseUrlPost } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { databaseBytes, slackUser, submitLogin, textOf } from './helpers.js';

/** Every Slack call and response_url post of this file, for the final check that no secret reached Slack. */
const seenCalls: ApiCall[] = [];
const seenResponses: ResponseUrlPost[] = [];
const responseIds: string[] = [];

const bot = useTestBot();
beforeEach(() => {
  responseIds.length = 0;
});
afterEach(() => {
  seenCalls.push(...bot.slack.calls());
  for (const id of responseIds) seenResponses.push(...bot.slack.responses(id));
});

async function ps(user: 'ada' | 'maya' | 'sam', text: string) {
  const request = bot.requests.slashCommand({ text, userId: USERS[user].slackId });
  responseIds.push(request.responseUrlId ?? '');
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

const ada = USERS.ada;

describe('/ps login', () => {
  it('opens the login form with the trigger of the command', async () => {
    const request = bot.requests.slashCommand({ text: 'login', userId: ada.slackId });
    await bot.send(request);
    const open = await bot.slack.waitFor('views.open');
    expect(open.args.trigger_id).toBe(request.payload.trigger_id);
    expect(open.answer?.ok).toBe(true);
    expect(textOf(open.args.view)).toContain(CallbackId.login);
    expect(textOf(open.args.view)).toContain('api_key_input');
  });

  it('refuses a wrong key under the API key field and stores nothing', async () => {
    const wrongKey = 'not-a-real-key-0001';
    const response = await submitLogin(bot, ada.slackId, { apiKey: wrongKey });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: { api_key: expect.stringContaining('does not accept this API key (401)') },
    });
    expect(await bot.vault.credentials(slackUser('ada'))).toBeUndefined();
    expect((await databaseBytes(bot)).includes(Buffer.from(wrongKey))).toBe(false);
    const [audit] = await bot.store.audit.list({ userId: ada.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'account.link', outcome: 'error' });
  });

  it('links a good key pasted with spaces, encrypted, and confirms it with the masked key', async () => {
    const response = await submitLogin(bot, ada.slackId, { apiKey: `  ${ada.apiKey}\n` });
    expect(response.body).toMatchObject({ response_action: 'update' });
    const shown = textOf(response.body);
    expect(shown).toContain('••••dual');
    expect(shown).toContain('ada.park@example.com');
    expect(shown).not.toMatch(/\bteam\b/i);
    expect(shown).not.toContain(ada.apiKey);

    expect(await bot.vault.credentials(slackUser('ada'))).toEqual({ apiKey: ada.apiKey });
    expect((await databaseBytes(bot)).includes(Buffer.from(ada.apiKey))).toBe(false);
    const [audit] = await bot.store.audit.list({ userId: ada.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'account.link', outcome: 'ok' });

    const dm = await bot.slack.waitFor(
      (call) => call.method === 'chat.postMessage' && call.args.channel === ada.slackId,
    );
    expect(textOf(dm.args.blocks)).toContain('••••dual');
    const home = await bot.slack.waitFor('views.publish');
    expect(home.args.user_id).toBe(ada.slackId);
    expect(textOf(home.args.view)).toContain('ada.park@example.com');
  });

  it('shows whose key it is in /ps whoami, never the key', async () => {
    const reply = await ps('ada', 'whoami');
    const text = textOf(reply.blocks);
    expect(reply.response_type).toBe('ephemeral');
    expect(text).toContain('••••dual');
    expect(text).toContain('ada.park@example.com');
    expect(text).toContain('u1ada');
    // Ada's individual account has a team id too; nothing calls her one-person account a team.
    expect(text).not.toMatch(/\bteam\b/i);
    expect(text).toMatch(/Linked <!date\^\d+\^/);
    expect(text).toContain('Access token: none');
    expect(text).not.toContain(ada.apiKey);
  });

  it("links a team member by the e-mail of their Slack profile, never a teammate's", async () => {
    const sam = USERS.sam;
    bot.slack.setUser({ id: sam.slackId, email: 'sam@personal.example' });
    const unknownProfile = await submitLogin(bot, sam.slackId, { apiKey: sam.apiKey });
    expect(unknownProfile.body).toMatchObject({
      response_action: 'errors',
      errors: { paperspace_email: expect.stringContaining('the e-mail of your Slack profile') },
    });
    expect(await bot.vault.credentials(slackUser('sam'))).toBeUndefined();
    bot.slack.setUser({ id: sam.slackId, email: sam.email });

    const wrongEmail = await submitLogin(bot, sam.slackId, {
      apiKey: sam.apiKey,
      email: 'nobody@orbital.example',
    });
    expect(wrongEmail.body).toMatchObject({
      errors: { paperspace_email: expect.stringContaining('No user') },
    });

    const teammate = await submitLogin(bot, sam.slackId, {
      apiKey: sam.apiKey,
      email: 'maya.chen@orbital.example',
    });
    expect(teammate.body).toMatchObject({
      errors: { paperspace_email: expect.stringContaining('not the e-mail on your Slack profile') },
    });
    expect(await bot.vault.credentials(slackUser('sam'))).toBeUndefined();

    const linked = await submitLogin(bot, sam.slackId, {
      apiKey: sam.apiKey,
      email: 'SAM.rivera@orbital.example',
    });
    expect(linked.body).toMatchObject({ response_action: 'update' });
    expect(await bot.vault.account(slackUser('sam'))).toMatchObject({
      userId: 'u1sam',
      email: 'sam.rivera@orbital.example',
      teamId: 'te1orbit',
    });
  });

  it('refuses a team key when the Slack profile shows no e-mail, saying why', async () => {
    const sam = USERS.sam;
    // A Slack user whose profile shows no e-mail pastes Sam's key.
    const refused = await submitLogin(bot, 'U0NOMAIL', { apiKey: sam.apiKey, email: sam.email });
    expect(refused.body).toMatchObject({
      errors: { paperspace_email: expect.stringContaining('Slack shows no e-mail on your profile') },
    });
    expect(await bot.vault.credentials({ teamId: bot.slack.teamId, userId: 'U0NOMAIL' })).toBeUndefined();
  });

  it('links a team member with no e-mail typed, by the one on their Slack profile', async () => {
    const sam = USERS.sam;
    const linked = await submitLogin(bot, sam.slackId, { apiKey: sam.apiKey });
    expect(linked.body).toMatchObject({ response_action: 'update' });
    expect(await bot.vault.account(slackUser('sam'))).toMatchObject({ userId: 'u1sam' });
  });

  it("accepts a team member's access token that may not list drives, and refuses an unknown one", async () => {
    const sam = USERS.sam;
    const email = 'sam.rivera@orbital.example';
    const badToken = await submitLogin(bot, sam.slackId, {
      apiKey: sam.apiKey,
      email,
      accessToken: 'no-such-token-42',
    });
    expect(badToken.body).toMatchObject({
      response_action: 'errors',
      errors: { access_token: expect.stringContaining('does not accept this access token (401)') },
    });
    expect(await bot.vault.credentials(slackUser('sam'))).toEqual({ apiKey: sam.apiKey });

    const memberToken = await submitLogin(bot, sam.slackId, {
      apiKey: sam.apiKey,
      email,
      accessToken: sam.accessToken,
    });
    expect(memberToken.body).toMatchObject({ response_action: 'update' });
    expect(await bot.vault.credentials(slackUser('sam'))).toEqual({
      apiKey: sam.apiKey,
      accessToken: sam.accessToken,
    });
    expect((await databaseBytes(bot)).includes(Buffer.from(sam.accessToken))).toBe(false);
  });

  it('says when Paperspace cannot be reached to check the key, and stores nothing', async () => {
    const maya = USERS.maya;
    // Aimed at maya's key: a request an earlier test left in flight must not take the failures.
    bot.emulator.state.failNextRequests({
      count: 2,
      status: 503,
      path: '/users/getUsers',
      apiKey: maya.apiKey,
    });
    const response = await submitLogin(bot, maya.slackId, {
      apiKey: maya.apiKey,
      email: 'maya.chen@orbital.example',
    });
    expect(response.body).toMatchObject({
      response_action: 'errors',
      errors: { api_key: expect.stringMatching(/could not be checked, so nothing was saved.*503/) },
    });
    expect(await bot.vault.credentials(slackUser('maya'))).toBeUndefined();
  });

  it('refuses a key with spaces inside without asking Paperspace', async () => {
    const before = bot.emulator.state.requests().length;
    const response = await submitLogin(bot, USERS.maya.slackId, { apiKey: 'two words' });
    expect(response.body).toMatchObject({ errors: { api_key: expect.stringContaining('no spaces') } });
    expect(bot.emulator.state.requests().length).toBe(before);
  });
});

describe('the Log in button', () => {
  it('opens the login form with the trigger of the click on the login prompt', async () => {
    const prompt = await ps('maya', 'list');
    expect(textOf(prompt.blocks)).toContain(ActionId.login);
    const click = bot.requests.blockAction({
      actionId: ActionId.login,
      userId: USERS.maya.slackId,
      ephemeral: true,
    });
    await bot.send(click);
    const open = await bot.slack.waitFor('views.open');
    expect(open.args.trigger_id).toBe(click.payload.trigger_id);
    expect(open.answer?.ok).toBe(true);
    expect(textOf(open.args.view)).toContain(CallbackId.login);
  });

  it.each([
    ['expired_trigger_id', /3 seconds/],
    ['ratelimited', /Try again in a few seconds/],
  ])('tells the clicker what to do when Slack refuses to open the form (%s)', async (code, said) => {
    bot.slack.fail('views.open', code);
    const request = bot.requests.blockAction({
      actionId: ActionId.login,
      userId: USERS.maya.slackId,
      ephemeral: true,
    });
    await bot.send(request);
    const answer = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(answer).toMatchObject({ response_type: 'ephemeral' });
    expect(answer.text).toMatch(said);
  });

  it('opens it from App Home too, saying which account a new key would replace', async () => {
    const triggerId = bot.slack.issueTrigger();
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.login,
        userId: ada.slackId,
        view: { type: 'home' },
        triggerId,
      }),
    );
    const open = await bot.slack.waitFor('views.open');
    expect(open.args.trigger_id).toBe(triggerId);
    const filled = await bot.slack.waitFor('views.update');
    expect(filled.args.view_id).toBe((open.answer?.view as { id?: string } | undefined)?.id);
    expect(textOf(filled.args.view)).toContain('You are linked as *ada.park@example.com*');
  });

  it('opens the form before reading the database, so a slow database cannot expire the trigger', async () => {
    const { account } = bot.vault;
    const triggerId = bot.slack.issueTrigger();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The database answers only after the trigger (3 s) would have expired.
    bot.vault.account = async (user) => {
      await held;
      return account(user);
    };
    try {
      await bot.send(
        bot.requests.blockAction({
          actionId: ActionId.login,
          userId: ada.slackId,
          view: { type: 'home' },
          triggerId,
        }),
      );
      const open = await bot.slack.waitFor('views.open');
      expect(open.args.trigger_id).toBe(triggerId);
      expect(textOf(open.args.view)).toContain(CallbackId.login);
    } finally {
      release();
      bot.vault.account = account;
    }
    const filled = await bot.slack.waitFor('views.update');
    expect(textOf(filled.args.view)).toContain('You are linked as *ada.park@example.com*');
  });
});

describe('/ps logout', () => {
  it('forgets the key, says which, and records it', async () => {
    const reply = await ps('ada', 'logout');
    expect(textOf(reply.blocks)).toContain('Forgot your Paperspace key `••••dual`');
    expect(await bot.vault.credentials(slackUser('ada'))).toBeUndefined();
    const [audit] = await bot.store.audit.list({ userId: ada.slackId, limit: 1 });
    expect(audit).toMatchObject({ action: 'account.unlink', outcome: 'ok' });
    const home = await bot.slack.waitFor('views.publish');
    expect(textOf(home.args.view)).toContain('Log in');
  });

  it('says so when nothing is linked', async () => {
    const reply = await ps('ada', 'logout');
    expect(textOf(reply.blocks)).toContain('nothing to forget');
  });

  it('makes /ps whoami offer the login prompt again', async () => {
    const reply = await ps('ada', 'whoami');
    expect(textOf(reply.blocks)).toContain(ActionId.login);
  });
});

describe('secrets', () => {
  it('never reach the log or any Slack call of these tests', () => {
    const secrets = [
      ada.apiKey,
      USERS.sam.apiKey,
      USERS.sam.accessToken,
      USERS.maya.apiKey,
      'not-a-real-key-0001',
      'no-such-token-42',
    ];
    const slackTraffic = textOf(seenCalls) + textOf(seenResponses);
    expect(seenCalls.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(bot.logText()).not.toContain(secret);
      expect(slackTraffic).not.toContain(secret);
    }
  });
});
