import { describe, expect, it } from 'vitest';
import { MAX_ACTIVE_WATCHES_PER_PERSON } from '../../../src/features/machines/machine-watcher.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const clock = createFakeClock();

const bot = useTestBot({ now: clock.now, emulator: { now: clock.now, transitionMs: 2000 }, linked: ['ada'] });

async function command(text: string) {
  const request = bot.requests.slashCommand({ text });
  await bot.send(request);
  return request.responseUrlId ?? '';
}

describe('/ps wait', () => {
  it('says at once that a headless machine never reaches ready, and watches nothing', async () => {
    const watches = bot.watchRequests.length;
    const reply = await bot.slack.waitForResponse(await command('wait ada-cpu-box ready'));
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('headless Linux machine');
    expect(reply.text).toContain('`/ps wait ada-cpu-box serviceready`');
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
    expect(bot.watchRequests.length).toBe(watches);
  });

  it('posts a card in the channel, updates it as the machine changes and replies in its thread when it gets there', async () => {
    await command('wait ada-workstation off --timeout 10m');
    const card = await bot.slack.waitFor('chat.postMessage');
    expect(card.args.channel).toBe('C0CHANNEL');
    expect(messageText(card.args)).toContain('Waiting for');
    await expect.poll(() => bot.watchRequests.length).toBe(1);
    expect(bot.watchRequests[0]).toMatchObject({
      machineId: 'psada001',
      targetState: 'off',
      timeoutMs: 10 * 60_000,
      channel: 'C0CHANNEL',
      messageTs: expect.any(String),
      initialState: 'ready',
    });

    // Someone stops it elsewhere (the console, another command); the watch follows.
    await fetch(`${bot.emulator.url}/machines/psada001/stop`, {
      method: 'POST',
      headers: { 'x-api-key': USERS.ada.apiKey },
    });
    await bot.scheduler.tick();
    const updates = bot.slack.calls('chat.update');
    expect(updates).toHaveLength(1);
    expect(messageText(updates[0]?.args ?? {})).toContain('Stopping');

    clock.advance(5000);
    await bot.scheduler.tick();
    const replies = bot.slack.calls('chat.postMessage').slice(1);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.args.thread_ts).toBe(bot.watchRequests[0]?.messageTs);
    expect(messageText(replies[0]?.args ?? {})).toContain(
      `<@${USERS.ada.slackId}> *ada-workstation* is ⚫ Off`,
    );
  });

  it('says so privately, and watches nothing, when the machine is already in that state', async () => {
    const before = bot.watchRequests.length;
    const reply = await bot.slack.waitForResponse(await command('wait ada-cpu-box off'));
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('already');
    expect(bot.watchRequests).toHaveLength(before);
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
  });

  it("posts the card in the user's DM when the bot may not post in the channel", async () => {
    bot.slack.fail('chat.postMessage', 'not_in_channel');
    const responseId = await command('wait ada-render ready');
    const notice = await bot.slack.waitForResponse(responseId);
    expect(notice.text).toContain('direct messages');
    const posts = bot.slack.calls('chat.postMessage');
    expect(posts.map((post) => post.args.channel)).toEqual(['C0CHANNEL', USERS.ada.slackId]);
    await expect.poll(() => bot.watchRequests.at(-1)?.channel).toBe('D0ADA');
  });

  it('answers privately, naming the problem, when the machine is unknown', async () => {
    const reply = await bot.slack.waitForResponse(await command('wait no-such-box ready'));
    expect(reply.text).toContain('No machine called "no-such-box"');
  });

  it('refuses a watch past the per-person limit, saying why, and posts no card', async () => {
    const ada = { teamId: bot.slack.teamId, userId: USERS.ada.slackId };
    for (let index = 0; index < MAX_ACTIVE_WATCHES_PER_PERSON; index += 1) {
      await bot.store.watches.create({
        ...ada,
        machineId: `psada${String(index).padStart(3, '0')}`,
        machineName: `ada-${index}`,
        targetState: 'off',
        channel: 'C0CHANNEL',
        createdAt: clock.now(),
        deadlineAt: clock.now() + 60 * 60_000,
      });
    }
    const watches = bot.watchRequests.length;
    const reply = await bot.slack.waitForResponse(await command('wait ada-workstation off'));
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toMatch(/already watching \d+ machines, the most one person can/);
    expect(bot.slack.calls('chat.postMessage')).toHaveLength(0);
    expect(bot.watchRequests.length).toBe(watches);
  });
});
