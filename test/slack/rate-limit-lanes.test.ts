// Slack's 429 on one method must not hold up another person's modal: a trigger_id lives 3 seconds,
// and the Web API client's own reaction to a 429 is to pause every call behind it for Retry-After.
import { describe, expect, it } from 'vitest';
import { addSpareMachine } from '../features/machines/machine-kit.js';
import { USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const TRIGGER_LIFE_MS = 3_000;

const bot = useTestBot({ linked: ['ada', 'maya'] });

describe('a 429 on chat.postMessage', () => {
  it("opens another person's modal at once while Slack asks the bot to wait 5 s before posting", async () => {
    const machine = addSpareMachine(bot, { prefix: 'lanes-' });
    // The card is refused with Retry-After 5, longer than a trigger_id lives: the card waits it out.
    bot.slack.script('chat.postMessage', { status: 429, retryAfterSeconds: 5 });
    await bot.send(
      bot.requests.slashCommand({
        text: `start ${machine.name}`,
        userId: USERS.ada.slackId,
        channelId: 'C0BUSY',
      }),
    );
    await bot.slack.waitFor('chat.postMessage');

    const asked = Date.now();
    await bot.send(
      bot.requests.slashCommand({ text: 'create', userId: USERS.maya.slackId, channelId: 'C0OPS' }),
    );
    const opened = await bot.slack.waitFor('views.open', { timeoutMs: TRIGGER_LIFE_MS });
    expect(Date.now() - asked).toBeLessThan(TRIGGER_LIFE_MS);
    expect(opened.answer?.ok).toBe(true);
  });
});
