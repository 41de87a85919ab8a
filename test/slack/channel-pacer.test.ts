// The pacer on a fake clock: vitest's fake timers drive both Date.now and the waits.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SLACK_PACING } from '../../src/config.js';
import { createChannelPacer } from '../../src/slack/channel-pacer.js';

const T0 = Date.UTC(2026, 0, 5, 9, 0);

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

/** Records when each send ran, by label, relative to T0. */
function recorder() {
  const sent: { label: string; at: number }[] = [];
  const send = (label: string) => async () => {
    sent.push({ label, at: Date.now() - T0 });
    return label;
  };
  return { sent, send };
}

describe('channel pacer', () => {
  it("posts a burst in one channel a second apart, in order, without holding up another channel's", async () => {
    const pacer = createChannelPacer();
    const { sent, send } = recorder();
    const replies = [1, 2, 3].map((n) => pacer.message('C_OPS', send(`ops-${n}`)));
    const other = pacer.message('C_ML', send('ml-1'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(await Promise.all([...replies, other])).toEqual(['ops-1', 'ops-2', 'ops-3', 'ml-1']);
    expect(sent).toEqual([
      { label: 'ops-1', at: 0 },
      { label: 'ml-1', at: 0 },
      { label: 'ops-2', at: 1000 },
      { label: 'ops-3', at: 2000 },
    ]);
  });

  it('keeps the order of a channel even when a post in it fails', async () => {
    const pacer = createChannelPacer();
    const { sent, send } = recorder();
    const failing = pacer.message('C_OPS', async () => {
      throw new Error('ratelimited');
    });
    const next = pacer.message('C_OPS', send('after'));
    await expect(failing).rejects.toThrow('ratelimited');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await next).toBe('after');
    expect(sent).toEqual([{ label: 'after', at: 1000 }]);
  });

  it('spends the chat.update burst at once, then queues without blocking, newest content per card', async () => {
    const pacer = createChannelPacer();
    const { sent, send } = recorder();
    const burst = SLACK_PACING.updateBurst;
    const handedOver = Array.from({ length: burst }, (_, n) =>
      pacer.update(`C${n}/1.0`, async () => {
        await send(`card-${n}`)();
      }),
    );
    await Promise.all(handedOver);
    expect(sent).toHaveLength(burst);
    // Out of budget: these resolve at once, unsent, and the newer update of card A replaces the older.
    await pacer.update('C_A/1.0', async () => void (await send('A-starting')()));
    await pacer.update('C_B/1.0', async () => void (await send('B-ready')()));
    await pacer.update('C_A/1.0', async () => void (await send('A-ready')()));
    const reply = pacer.message('C_A', send('reply'));
    await vi.advanceTimersByTimeAsync(0);
    expect(await reply).toBe('reply');
    expect(sent.at(-1)).toEqual({ label: 'reply', at: 0 });
    await vi.advanceTimersByTimeAsync(3000);
    const perUpdateMs = 60_000 / SLACK_PACING.updatesPerMinute;
    expect(sent.slice(burst + 1)).toEqual([
      { label: 'A-ready', at: perUpdateMs },
      { label: 'B-ready', at: 2 * perUpdateMs },
    ]);
  });

  it('paces nothing for a Slack stand-in without limits', async () => {
    const pacer = createChannelPacer({ pacing: null });
    const { sent, send } = recorder();
    await Promise.all([1, 2, 3].map((n) => pacer.message('C_OPS', send(`ops-${n}`))));
    expect(sent.map((entry) => entry.at)).toEqual([0, 0, 0]);
  });
});
