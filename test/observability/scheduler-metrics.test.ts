import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_AFTER_MS } from '../../src/features/watches/watch-outcomes.js';
import { createFakeClock } from '../../tools/emulator/index.js';
import { eventually } from '../features/machines/machine-kit.js';
import { startTestBot, type TestBot, USERS } from '../support/test-bot.js';

// Wednesday 2024-05-15, 09:00 UTC; the test users' Slack time zone is Europe/Amsterdam (UTC+2 in May).
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ now: clock.now, emulator: { now: clock.now } });
  await bot.link('ada');
});
afterAll(async () => {
  await bot.close();
});

async function series(name: string): Promise<number | undefined> {
  const { text } = await bot.get('/metrics');
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

async function command(text: string) {
  const request = bot.requests.slashCommand({ text });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

describe('scheduler metrics', () => {
  it('show the watches under way, read from the store when scraped', async () => {
    expect(await series('psbot_watches_active')).toBe(0);
    // A start answers with a card in the channel, then asks for a watch.
    await bot.send(bot.requests.slashCommand({ text: 'start ada-cpu-box' }));
    const active = await eventually(async () => {
      const value = await series('psbot_watches_active');
      return value === 0 ? undefined : value;
    });
    expect(active).toBe(1);
  });

  it('count the reminders this bot delivered, and the ones it could not', async () => {
    await command('remind 19:00 weekdays');
    await bot.scheduler.tick();

    clock.set(Date.parse('2024-05-15T17:00:00Z'));
    await bot.cron.runDue();
    expect(bot.slack.calls('chat.postMessage').at(-1)?.args.channel).toBe(USERS.ada.slackId);
    expect(await series('psbot_reminders_fired_total{kind="scheduled"}')).toBe(1);
    expect(await series('psbot_errors_total{source="reminder"}')).toBe(0);

    // A reminder falls back from its channel to the DM and an ephemeral message: one that reached the
    // person there counts as delivered, so every way is refused here.
    bot.slack.fail('chat.postMessage', 'channel_not_found', { times: 10 });
    bot.slack.fail('chat.postEphemeral', 'channel_not_found', { times: 10 });
    clock.set(Date.parse('2024-05-16T17:00:00Z'));
    await bot.cron.runDue();
    expect(await series('psbot_reminders_fired_total{kind="scheduled"}')).toBe(1);
    expect(await series('psbot_errors_total{source="reminder"}')).toBe(1);
    bot.slack.reset(); // the refusals left unused must not meet the next test's calls
  });

  it('count a completion Slack refused, which a later tick posts', async () => {
    expect(await series('psbot_errors_total{source="completion"}')).toBe(0);
    // The machine started by the first test is ready by now; Slack fails its reply.
    bot.slack.fail('chat.postMessage', 'internal_error');
    await bot.scheduler.tick();
    expect(await series('psbot_watches_active')).toBe(0);
    expect(await series('psbot_errors_total{source="completion"}')).toBe(1);

    clock.advance(RETRY_AFTER_MS);
    await bot.scheduler.tick();
    expect(String(bot.slack.calls('chat.postMessage').at(-1)?.args.text)).toContain('ada-cpu-box');
    expect(await series('psbot_errors_total{source="completion"}')).toBe(1);
  });

  it('count a scheduler step that failed', async () => {
    expect(await series('psbot_errors_total{source="scheduler"}')).toBe(0);
    await bot.store.close();
    await bot.scheduler.tick();
    expect(await series('psbot_errors_total{source="scheduler"}')).toBeGreaterThanOrEqual(1);
  });
});
