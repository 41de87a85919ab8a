// Slack takes about one message a second in a channel. A burst of cards and their completions in one
// channel is rate limited (HTTP 429 with Retry-After) by the fake Slack as by Slack: every one of them
// still ends in that channel, each completion after its own card, and none in anyone's DM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { startTestBot, type TestBot } from '../../support/test-bot.js';
import { addSpareMachine } from '../machines/machine-kit.js';

const clock = createFakeClock();
const CHANNEL = 'C0BUSY';
const CARDS = 6;
let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ now: clock.now, emulator: { now: clock.now, transitionMs: 2000 } });
  await bot.link('ada');
});
afterAll(async () => {
  await bot.close();
});

describe('a channel that rate limits the bot', () => {
  it('ends with all 6 cards and their 6 completions in that channel, each completion after its card', async () => {
    const machines = Array.from({ length: CARDS }, () =>
      addSpareMachine(bot, { prefix: 'busy-', state: 'off' }),
    );
    for (const machine of machines) {
      await bot.send(bot.requests.slashCommand({ text: `start ${machine.name}`, channelId: CHANNEL }));
    }
    // The sixth card waits out its 429 (Retry-After) before Slack takes it.
    await expect.poll(() => bot.watchRequests.length, { timeout: 10_000 }).toBe(CARDS);

    await bot.scheduler.tick();
    clock.advance(5000);
    await bot.scheduler.tick();
    const landed = () => bot.slack.calls('chat.postMessage').filter((call) => call.answer?.ok === true);
    await expect.poll(() => landed().length, { timeout: 15_000 }).toBe(2 * CARDS);

    const posts = landed();
    expect(posts.every((call) => call.args.channel === CHANNEL)).toBe(true);
    // Slack refused some posts with a 429: they were posted again here, not moved to the DM.
    expect(bot.slack.calls('chat.postMessage').some((call) => call.answer?.error === 'ratelimited')).toBe(
      true,
    );
    for (const request of bot.watchRequests) {
      const card = posts.findIndex((call) => call.answer?.ts === request.messageTs);
      const completion = posts.findIndex((call) => call.args.thread_ts === request.messageTs);
      expect(card).toBeGreaterThanOrEqual(0);
      expect(completion).toBeGreaterThan(card);
    }
  });
});
