// Paperspace answers every request after 2.7 s here: longer than the bot may take to answer a modal
// submission (Slack gives 3 s for the whole round trip), so the key check must finish after the ack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACK_BUDGET_MS } from '../../../src/features/account/modals/login-submission.js';
import { startTestBot, type TestBot, USERS } from '../../support/test-bot.js';
import { slackUser, submitLogin, textOf } from './helpers.js';

const LATENCY_MS = 2700;
const SLACK_LIMIT_MS = 3000;

let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ emulator: { latencyMs: LATENCY_MS } });
});
afterAll(async () => {
  await bot.close();
});

describe.concurrent('login against a slow Paperspace', () => {
  it('answers Slack in time with "Checking your key…", then shows the linked account', async () => {
    const ada = USERS.ada;
    const started = Date.now();
    const response = await submitLogin(bot, ada.slackId, { apiKey: ada.apiKey }, 'V-slow-good');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(ACK_BUDGET_MS - 50);
    expect(elapsed).toBeLessThan(SLACK_LIMIT_MS);
    expect(response.body).toMatchObject({ response_action: 'update' });
    expect(textOf(response.body)).toContain('Checking your key');

    const update = await bot.slack.waitFor(
      (call) => call.method === 'views.update' && call.args.view_id === 'V-slow-good',
      { timeoutMs: 5000 },
    );
    expect(textOf(update.args.view)).toContain('ada.park@example.com');
    expect(textOf(update.args.view)).toContain('••••dual');
    expect(await bot.vault.credentials(slackUser('ada'))).toEqual({ apiKey: ada.apiKey });
  });

  it('puts the form back with the reason when the slow answer refuses the key, storing nothing', async () => {
    const maya = USERS.maya;
    const response = await submitLogin(bot, maya.slackId, { apiKey: 'slow-and-wrong-key-9' }, 'V-slow-bad');
    expect(textOf(response.body)).toContain('Checking your key');

    const update = await bot.slack.waitFor(
      (call) => call.method === 'views.update' && call.args.view_id === 'V-slow-bad',
      { timeoutMs: 5000 },
    );
    const view = textOf(update.args.view);
    expect(view).toContain('does not accept this API key (401)');
    expect(view).toContain('api_key_input');
    expect(await bot.vault.credentials(slackUser('maya'))).toBeUndefined();
  });
});

// Alone, not beside the tests above: it slows the replay check of every request while it runs.
describe('login when the replay check is slow too', () => {
  it("counts its budget from the request's arrival, so a slow replay check does not push the ack past 3 s", async () => {
    const replays = bot.store.requestReplays;
    const claim = replays.claim.bind(replays);
    replays.claim = async (hash, expiresAt) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return claim(hash, expiresAt);
    };
    try {
      const sam = USERS.sam;
      const started = Date.now();
      const response = await submitLogin(bot, sam.slackId, { apiKey: sam.apiKey }, 'V-slow-replay-check');
      expect(Date.now() - started).toBeLessThan(SLACK_LIMIT_MS);
      expect(textOf(response.body)).toContain('Checking your key');
    } finally {
      replays.claim = claim;
    }
  });
});
