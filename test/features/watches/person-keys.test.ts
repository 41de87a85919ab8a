// A person's key is opened from the vault once and kept between polls, for as long as their stored
// entry is unchanged: logout and a new link (like a VAULT_KEY rotation's reseal, a new seal) each drop
// the kept key at the next tick.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POLL_INTERVAL_MS, type SchedulerHarness, startSchedulerHarness } from '../../scheduler/harness.js';
import { USERS } from '../../support/test-bot.js';

let h: SchedulerHarness;
let opened: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  h = await startSchedulerHarness();
  await h.link('ada');
  opened = vi.spyOn(h.vault, 'credentials');
});
afterEach(async () => {
  await h.close();
});

const RENDER = { id: 'psada003', name: 'ada-render' };
/** Whose key each machine list was made with, by emulator user id. */
const listsBy = () =>
  h.emulator.state
    .requests()
    .filter((entry) => entry.path === '/machines/getMachines')
    .map((entry) => entry.userId);

const watchRender = () =>
  h.startAndWatch('ada', RENDER, { channel: 'C0OPS', targetState: 'ready', timeoutMs: 60 * 60_000 });

describe("a person's opened key between polls", () => {
  it('is opened once and used by every later poll, each still made with their own key', async () => {
    await watchRender();
    for (let tick = 0; tick < 4; tick += 1) await h.advanceAndTick(100);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(listsBy()).toEqual(['u1ada', 'u1ada', 'u1ada', 'u1ada']);
  });

  it('is dropped when the person links another key: the next poll uses the new one', async () => {
    await watchRender();
    await h.advanceAndTick(100);
    // Ada links Maya's key (a team key): from the next tick on, her polls carry it, not her old one.
    const maya = h.emulator.state.user(USERS.maya.emulatorUserId);
    await h.vault.link(h.user('ada'), {
      apiKey: USERS.maya.apiKey,
      account: { userId: 'u1maya', email: maya?.email ?? '', teamId: maya?.accountId ?? null },
    });
    await h.advanceAndTick(100);
    expect(opened).toHaveBeenCalledTimes(2);
    expect(listsBy()).toEqual(['u1ada', 'u1maya']);
  });

  it('is dropped at logout: no poll is made with the key after it', async () => {
    await watchRender();
    await h.advanceAndTick(100);
    await h.vault.unlink(h.user('ada'));
    await h.advanceAndTick(100);
    expect(listsBy()).toEqual(['u1ada']);
    const [reply] = h.slack.calls('chat.postMessage');
    expect(JSON.stringify(reply?.args)).toContain('unlinked');
  });

  it('is opened again once it has been kept for ten minutes', async () => {
    // A watch that lasts: a running machine watched until it is off, which nobody asks of it.
    await h.watcher.watch({
      user: h.user('ada'),
      machineId: 'psada001',
      machineName: 'ada-workstation',
      targetState: 'off',
      channel: 'C0OPS',
      messageTs: '1700000000.000002',
      initialState: 'ready',
      timeoutMs: 60 * 60_000,
    });
    await h.advanceAndTick(100);
    await h.advanceAndTick(9 * 60_000);
    expect(opened).toHaveBeenCalledTimes(1);
    await h.advanceAndTick(60_000 + POLL_INTERVAL_MS);
    expect(opened).toHaveBeenCalledTimes(2);
  });
});
