// Slack takes about one message a second in a channel. A burst of cards and their completions in one
// channel is rate limited (HTTP 429 with Retry-After) by the fake Slack as by Slack: every one of them
// still ends in that channel (the bot's one pacer gives cards and completions one lane there), each
// completion after its own card, and none in anyone's DM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { ApiCall } from '../../support/fake-slack.js';
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
  it('ends with all 6 cards and every completion after its card in that channel, none in a DM', async () => {
    const machines = Array.from({ length: CARDS }, () =>
      addSpareMachine(bot, { prefix: 'busy-', state: 'off' }),
    );
    for (const machine of machines) {
      await bot.send(bot.requests.slashCommand({ text: `start ${machine.name}`, channelId: CHANNEL }));
    }
    // The sixth card waits out its 429 (Retry-After) in the channel's lane before Slack takes it.
    await expect.poll(() => bot.watchRequests.length, { timeout: 10_000 }).toBe(CARDS);

    await bot.scheduler.tick();
    clock.advance(5000);
    await bot.scheduler.tick();
    const landed = () => bot.slack.calls('chat.postMessage').filter((call) => call.answer?.ok === true);
    const mentions = (name: string) =>
      landed().filter((call) => String(call.args.text).includes(`*${name}*`) && !isCard(call));
    const isCard = (call: ApiCall) =>
      bot.watchRequests.some((request) => request.messageTs === call.answer?.ts);
    await expect
      .poll(() => machines.every((machine) => mentions(machine.name).length === 1), { timeout: 15_000 })
      .toBe(true);

    const posts = landed();
    // Everything in the channel: Slack's 429s were waited out there, nothing moved to anyone's DM.
    expect(posts.map((call) => call.args.channel)).toEqual(posts.map(() => CHANNEL));
    expect(bot.slack.calls('chat.postMessage').some((call) => call.answer?.error === 'ratelimited')).toBe(
      true,
    );
    const cardAt = machines.map((machine) =>
      posts.findIndex((call) => isCard(call) && String(call.args.text).includes(machine.name)),
    );
    expect(cardAt.every((at) => at >= 0)).toBe(true);
    for (const [index, machine] of machines.entries()) {
      const completion = posts.indexOf(mentions(machine.name)[0] as ApiCall);
      expect(completion).toBeGreaterThan(cardAt[index] as number);
    }
    // Finished in the same tick, the six completions share a message or two instead of six turns.
    expect(posts.length).toBeLessThanOrEqual(CARDS + 2);
  });
});
