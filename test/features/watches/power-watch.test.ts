import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeMachineRef } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { startTestBot, type TestBot, USERS } from '../../support/test-bot.js';

const clock = createFakeClock();
let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ now: clock.now, emulator: { now: clock.now, transitionMs: 2000 } });
  await bot.link('ada');
});
afterAll(async () => {
  await bot.close();
});

describe('a power command followed through by the scheduler', () => {
  it('/ps start posts a card, the scheduler updates it and replies once in its thread when the machine is ready', async () => {
    await bot.send(bot.requests.slashCommand({ text: 'start ada-render' }));
    await expect.poll(() => bot.watchRequests.length).toBe(1);
    const request = bot.watchRequests[0];
    expect(request).toMatchObject({ machineId: 'psada003', targetState: 'ready', channel: 'C0CHANNEL' });
    const posted = bot.slack.calls('chat.postMessage').length;

    await bot.scheduler.tick();
    clock.advance(5000);
    await bot.scheduler.tick();
    clock.advance(5000);
    await bot.scheduler.tick();

    const cardUpdates = bot.slack.calls('chat.update').filter((call) => call.args.ts === request?.messageTs);
    expect(messageText(cardUpdates.at(-1)?.args ?? {})).toContain('✅');
    const replies = bot.slack.calls('chat.postMessage').slice(posted);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.args.thread_ts).toBe(request?.threadTs ?? request?.messageTs);
    expect(messageText(replies[0]?.args ?? {})).toContain(
      // Ready after 2 s, seen by the tick at 5 s.
      `<@${USERS.ada.slackId}> *ada-render* is 🟢 Ready (took 5s)`,
    );
  });

  // v1's start answers with its event, which the watch follows: a start that fails without the
  // machine ever leaving off is known at once. The contract names no event, so there the watch learns
  // of it only when the machine's state moves, or at its deadline.
  it.runIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "fails the watch at once with the error of the start's own event, though the machine never left off",
    async () => {
      clock.advance(10 * 60_000);
      bot.emulator.state.failNextOperation('psada002', 'No capacity for this machine type in NY2');
      const before = bot.watchRequests.length;
      await bot.send(bot.requests.slashCommand({ text: 'start ada-cpu-box' }));
      await expect.poll(() => bot.watchRequests.length).toBe(before + 1);
      const request = bot.watchRequests.at(-1);
      const posted = bot.slack.calls('chat.postMessage').length;

      // The whole operation is over before the first poll: the machine is off again, as it was.
      clock.advance(5000);
      expect(bot.emulator.state.machine('psada002')?.state).toBe('off');
      await bot.scheduler.tick();

      const replies = bot.slack.calls('chat.postMessage').slice(posted);
      expect(replies).toHaveLength(1);
      expect(messageText(replies[0]?.args ?? {})).toContain(
        'The start of *ada-cpu-box* failed: No capacity for this machine type in NY2',
      );
      const watch = (await bot.store.watches.listActive()).find((w) => w.machineId === 'psada002');
      expect(watch).toBeUndefined();
      expect(request).toMatchObject({ machineId: 'psada002' });
      const eventReads = bot.emulator.state
        .requests()
        .filter((entry) => entry.path.startsWith('/v1/machine-events/'));
      expect(eventReads.length).toBeGreaterThan(0);
    },
  );
});

describe('a power change asked from App Home', () => {
  it('publishes the Home again when the Stop is sent and when the machine is off', async () => {
    bot.slack.reset();
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineStop,
        value: encodeMachineRef({ id: 'psada001', name: 'ada-workstation' }),
        userId: USERS.ada.slackId,
        view: { type: 'home' },
      }),
    );
    const sent = await bot.slack.waitFor('views.publish');
    expect(sent.args.user_id).toBe(USERS.ada.slackId);
    expect(JSON.stringify(sent.args.view)).toContain('*ada-workstation* · Stopping');

    clock.advance(5000);
    await bot.scheduler.tick();
    await expect.poll(() => bot.slack.calls('views.publish').length).toBe(2);
    const done = bot.slack.calls('views.publish')[1];
    expect(JSON.stringify(done?.args.view)).toContain('*ada-workstation* · Off');
  });
});
