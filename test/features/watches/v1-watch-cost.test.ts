// What a watch costs in v1, counted from the emulator's request log: a start that takes a minute is
// followed by one list per tick, its event read only at the first poll and then every few ticks.
// Always v1 (the contract names no event to follow), so it is not in vitest's BOTH_DIALECTS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { startTestBot, type TestBot } from '../../support/test-bot.js';

const POLL_MS = 5000;
const clock = createFakeClock();
let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({
    dialect: 'v1',
    now: clock.now,
    emulator: { now: clock.now, transitionMs: 60_000 },
  });
  await bot.link('ada');
});
afterAll(async () => {
  await bot.close();
});

/** The emulator's requests made while `run` ran. */
async function requestsDuring(run: () => Promise<void>): Promise<string[]> {
  const before = bot.emulator.state.requests().length;
  await run();
  return bot.emulator.state
    .requests()
    .slice(before)
    .map((entry) => `${entry.method} ${entry.path}`);
}

describe('a v1 watch of a one-minute start', () => {
  it('lists once per tick and reads its event at the first poll and then once in every six ticks', async () => {
    await bot.send(bot.requests.slashCommand({ text: 'start ada-render' }));
    await expect.poll(() => bot.watchRequests.length).toBe(1);
    const posted = bot.slack.calls('chat.postMessage').length;

    const perTick: string[][] = [];
    // 11 ticks, 55 s: the machine is still starting at every one of them.
    for (let tick = 0; tick < 11; tick += 1) {
      clock.advance(POLL_MS);
      perTick.push(await requestsDuring(() => bot.scheduler.tick()));
    }
    expect(bot.emulator.state.machine('psada003')?.state).toBe('starting');
    for (const requests of perTick) {
      expect(requests.filter((request) => request === 'GET /v1/machines')).toHaveLength(1);
    }
    const eventReads = perTick.map(
      (requests) => requests.filter((request) => request.startsWith('GET /v1/machine-events/')).length,
    );
    // Read at the first poll; then at the watch's own phase within the next six ticks (watches made
    // together do not all read in one tick), and six ticks after that.
    expect(eventReads[0]).toBe(1);
    const later = eventReads.flatMap((count, tick) => (tick > 0 && count > 0 ? [tick] : []));
    expect(eventReads.every((count) => count <= 1)).toBe(true);
    expect(later.length).toBeGreaterThanOrEqual(1);
    expect(later[0]).toBeLessThanOrEqual(6);
    for (const [index, tick] of later.slice(1).entries()) expect(tick - (later[index] ?? 0)).toBe(6);
    if ((later[0] ?? 0) + 6 <= 10) expect(later).toHaveLength(2);
    // Nothing else after the first tick (which also runs the cost guard's check of ada's running
    // machine, due every 5 minutes): ten lists and the event reads.
    expect(perTick.slice(1).flat()).toHaveLength(10 + later.length);

    // The machine is ready at 60 s: the list that shows it ends the watch, with no call of its own.
    clock.advance(POLL_MS);
    expect(await requestsDuring(() => bot.scheduler.tick())).toEqual(['GET /v1/machines']);
    const replies = bot.slack.calls('chat.postMessage').slice(posted);
    expect(replies).toHaveLength(1);
    expect(messageText(replies[0]?.args ?? {})).toContain('*ada-render* is 🟢 Ready');
  });
});
