// /ps usage on v1, where the month's running time is rebuilt from the machine's events: the bot pages
// them newest first (v1's default order) and stops at the page that reaches back before the month,
// so a machine with a long history costs a page or two, not one per 120 events it ever had.
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from './machine-kit.js';

// 15 May 2024 09:00 UTC, as every test bot starts.
const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const HOUR = 60 * 60 * 1000;
const bot = useTestBot({ dialect: 'v1', emulator: { now: clock.now }, now: clock.now, linked: ['ada'] });

async function power(machineId: string, action: 'start' | 'stop') {
  const response = await fetch(`${bot.emulator.v1Url}/machines/${machineId}/${action}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${USERS.ada.apiKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`${action} answered ${response.status}: ${await response.text()}`);
  // Past the transition (1 s in the test bot), so the machine has settled before the next action.
  clock.advance(2000);
}

const eventPagesServed = () =>
  bot.emulator.state
    .requests()
    .filter((entry) => entry.path === '/v1/machine-events' && entry.query.includes('machineId=psada001'));

describe('/ps usage on v1', () => {
  it("reads the machine's events only back to the start of the month, and estimates the month from them", async () => {
    // ada-workstation is seeded running: 150 stop/start pairs in May give it 300 events more, over
    // two full pages of them.
    for (let pair = 0; pair < 150; pair += 1) {
      await power('psada001', 'stop');
      await power('psada001', 'start');
    }
    // Into June: running since the last start in May, then stopped after 5 hours of June.
    clock.set(Date.UTC(2024, 5, 1, 5));
    await power('psada001', 'stop');
    clock.advance(HOUR);

    const before = eventPagesServed().length;
    const request = bot.requests.slashCommand({ text: 'usage ada-workstation', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    const text = textOf(reply.blocks);
    expect(text).toContain('Usage of ada-workstation · June 2024');
    expect(text).toContain('5 h 00 min');
    const served = eventPagesServed().slice(before);
    // One page (newest first) already reaches back into May: nothing older is asked for.
    expect(served).toHaveLength(1);
    expect(served[0]?.query).toContain('order=desc');
  });
});
