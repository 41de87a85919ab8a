import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const clock = createFakeClock();
const bot = useTestBot({ now: clock.now, emulator: { now: clock.now, transitionMs: 2000 }, linked: ['ada'] });

async function command(text: string) {
  const request = bot.requests.slashCommand({ text, userId: USERS.ada.slackId });
  await bot.send(request);
  return request;
}

/** Ticks the scheduler `times` times, five seconds apart. */
async function ticks(times: number) {
  for (let i = 0; i < times; i++) {
    clock.advance(5000);
    await bot.scheduler.tick();
  }
}

const lastUpdateOf = (ts: string | undefined) =>
  bot.slack
    .calls('chat.update')
    .filter((call) => call.args.ts === ts)
    .at(-1);
const repliesIn = (ts: string | undefined) =>
  bot.slack.calls('chat.postMessage').filter((call) => call.args.thread_ts === ts);

describe('a newer operation on a machine takes over from the older card', () => {
  it('/ps stop then /ps start: the stop card says a newer start took over, and never claims a later stop', async () => {
    await command('stop ada-workstation');
    await expect.poll(() => bot.watchRequests.length).toBe(1);
    const stopCard = bot.watchRequests[0]?.messageTs;
    // The machine is off before any tick looked at it: the stop watch has not seen it yet.
    clock.advance(3000);
    await command('start ada-workstation');
    await expect.poll(() => bot.watchRequests.length).toBe(2);
    const startCard = bot.watchRequests[1]?.messageTs;
    expect(startCard).not.toBe(stopCard);

    await expect
      .poll(() => messageText(lastUpdateOf(stopCard)?.args ?? {}))
      .toContain('a newer start by <@U0ADA> took over, see the newer card');
    expect(messageText(lastUpdateOf(stopCard)?.args ?? {})).toMatch(
      /Stopped watching at <!date\^\d+\^\{time\}\|/,
    );
    const active = await bot.store.watches.listActive({ machineId: 'psada001' });
    expect(active.map((watch) => watch.messageTs)).toEqual([startCard]);

    await ticks(2);
    expect(messageText(repliesIn(startCard).at(-1)?.args ?? {})).toContain('is 🟢 Ready');
    // A later stop, not asked for on the stop card, finishes no watch of it.
    await fetch(`${bot.emulator.url}/machines/psada001/stop`, {
      method: 'POST',
      headers: { 'x-api-key': USERS.ada.apiKey },
    });
    await ticks(2);
    expect(repliesIn(stopCard)).toHaveLength(0);
  });

  it('a --no-wait card says when it was drawn and how to follow the machine, and ends the older watch', async () => {
    await command('start ada-render');
    await expect.poll(() => bot.watchRequests.length).toBe(3);
    const startCard = bot.watchRequests[2]?.messageTs;
    clock.advance(3000);
    const posted = bot.slack.calls('chat.postMessage').length;
    await command('stop ada-render --no-wait');

    await expect.poll(() => bot.slack.calls('chat.postMessage').length).toBe(posted + 1);
    const card = messageText(bot.slack.calls('chat.postMessage').at(-1)?.args ?? {});
    expect(card).toContain('not watched (--no-wait)');
    expect(card).toContain('`/ps wait ada-render off`');
    expect(card).not.toContain('Stopping… requested');
    await expect
      .poll(() => messageText(lastUpdateOf(startCard)?.args ?? {}))
      .toContain('a newer stop by <@U0ADA> took over');
    expect(await bot.store.watches.listActive({ machineId: 'psada003' })).toHaveLength(0);
  });

  it('a machine created without a start is followed until it is off, not left "Provisioning…"', async () => {
    await command(
      'create machineName=quiet-box machineType=C4 region=CA1 size=50 billingType=hourly templateId=t04azgph startOnCreate=false',
    );
    await expect.poll(() => bot.watchRequests.at(-1)?.machineName).toBe('quiet-box');
    const request = bot.watchRequests.at(-1);
    expect(request?.targetState).toBe('off');
    await ticks(3);
    expect(messageText(repliesIn(request?.messageTs).at(-1)?.args ?? {})).toContain('*quiet-box* is ⚫ Off');
    expect(messageText(lastUpdateOf(request?.messageTs)?.args ?? {})).toContain('✅ ⚫ Off after 2s');
  });
});
