// The pacer on a fake clock: vitest's fake timers drive both Date.now and the waits.

import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SLACK_PACING } from '../../src/config.js';
import { createChannelPacer } from '../../src/slack/channel-pacer.js';
import { rateLimitDeadline, waitingOutRateLimits } from '../../src/slack/posting/rate-limit-waits.js';
import type { Store } from '../../src/store/store.js';
import { sqliteFile, useFreshStore } from '../store/store-factories.js';

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

  it("gives another person's completion the next turn in a channel where one person has 50 waiting", async () => {
    const pacer = createChannelPacer();
    const { sent, send } = recorder();
    const adas = Array.from({ length: 50 }, (_, n) => pacer.message('C_OPS', send(`ada-${n}`), 'T1/U_ADA'));
    await vi.advanceTimersByTimeAsync(2500);
    // Sam's one completion arrives while Ada's 47 left are queued: Ada's next one, already in this
    // round, goes at 3 s, and Sam's at 4 s, not after Ada's last at 50 s.
    const sams = pacer.message('C_OPS', send('sam-1'), 'T1/U_SAM');
    await vi.advanceTimersByTimeAsync(60_000);
    await Promise.all([...adas, sams]);
    const samAt = sent.find((entry) => entry.label === 'sam-1')?.at;
    expect(samAt).toBe(4000);
    // Ada's keep their order and Slack's pace: a second apart, 51 posts in 51 seconds.
    const adaLabels = sent.filter((entry) => entry.label.startsWith('ada-')).map((entry) => entry.label);
    expect(adaLabels).toEqual(Array.from({ length: 50 }, (_, n) => `ada-${n}`));
    expect(sent.map((entry) => entry.at)).toEqual(Array.from({ length: 51 }, (_, n) => n * 1000));
  });

  it('takes turns between people waiting in one channel, each in their own order', async () => {
    const pacer = createChannelPacer();
    const { sent, send } = recorder();
    const posts = [
      pacer.message('C_OPS', send('ada-1'), 'ada'),
      pacer.message('C_OPS', send('ada-2'), 'ada'),
      pacer.message('C_OPS', send('ada-3'), 'ada'),
      pacer.message('C_OPS', send('sam-1'), 'sam'),
      pacer.message('C_OPS', send('sam-2'), 'sam'),
      pacer.message('C_OPS', send('lin-1'), 'lin'),
    ];
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all(posts);
    expect(sent.map((entry) => entry.label)).toEqual(['ada-1', 'ada-2', 'sam-1', 'lin-1', 'ada-3', 'sam-2']);
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

  it('gives a post queued behind one Slack refused for a minute that same minute, not a minute more', async () => {
    const pacer = createChannelPacer();
    // Slack's answer while a channel is rate limited: HTTP 429, Retry-After 20 s, for as long as it lasts.
    const refused = () =>
      Promise.reject(
        Object.assign(new Error('rate limited'), { code: webApi.ErrorCode.RateLimitedError, retryAfter: 20 }),
      );
    const settledAt: Record<string, number> = {};
    const post = (label: string) =>
      pacer
        .message('C_BUSY', (refusingSince) => waitingOutRateLimits(refused, rateLimitDeadline(refusingSince)))
        .catch(() => {
          settledAt[label] = Date.now() - T0;
        });
    const posts = [post('card'), post('next card')];
    await vi.advanceTimersByTimeAsync(150_000);
    await Promise.all(posts);
    // The card waits out 20 s three times and gives up at the minute; the next card, refused all the
    // while behind it, tries once more and gives up then too, instead of waiting a minute of its own.
    expect(settledAt).toEqual({ card: 60_000, 'next card': 60_000 });
  });

  it("counts a later post's minute from the last post that went through in its channel", async () => {
    const pacer = createChannelPacer();
    const since: number[] = [];
    const first = pacer.message('C_OPS', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5000));
    });
    const second = pacer.message('C_OPS', async (refusingSince) => {
      since.push(refusingSince - T0);
    });
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all([first, second]);
    expect(since).toEqual([5000]);
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

describe('channel pacers of two replicas on one store', () => {
  const db = useFreshStore(sqliteFile);
  const claimIn = (store: Store) => (channel: string, at: number, spacingMs: number) =>
    store.postSlots.claim(channel, at, spacingMs);

  it('post in one channel a second apart between them, each in its own order, another channel at once', async () => {
    const a = createChannelPacer({ claimSlot: claimIn(db.store) });
    const b = createChannelPacer({ claimSlot: claimIn(await db.connect()) });
    const { sent, send } = recorder();
    const posts = [1, 2, 3].flatMap((n) => [
      a.message('C_OPS', send(`a-${n}`)),
      b.message('C_OPS', send(`b-${n}`)),
    ]);
    const elsewhere = b.message('C_ML', send('ml-1'));
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all([...posts, elsewhere]);
    const inOps = sent.filter((entry) => entry.label !== 'ml-1');
    // Slack's pace counts the app's posts, whichever replica sends them: each alone would post two at once.
    expect(inOps.map((entry) => entry.at)).toEqual([0, 1000, 2000, 3000, 4000, 5000]);
    const labels = inOps.map((entry) => entry.label);
    expect(labels.filter((label) => label.startsWith('a-'))).toEqual(['a-1', 'a-2', 'a-3']);
    expect(labels.filter((label) => label.startsWith('b-'))).toEqual(['b-1', 'b-2', 'b-3']);
    expect(sent.find((entry) => entry.label === 'ml-1')?.at).toBe(0);
  });

  it('share one chat.update budget: a burst between them, then one update every 1.2 s', async () => {
    const claimUpdateIn = (store: Store) => (at: number, spacingMs: number) =>
      store.postSlots.claim('chat.update', at, spacingMs);
    const a = createChannelPacer({ claimUpdate: claimUpdateIn(db.store) });
    const b = createChannelPacer({ claimUpdate: claimUpdateIn(await db.connect()) });
    const { sent, send } = recorder();
    const burst = SLACK_PACING.updateBurst;
    await Promise.all(
      Array.from({ length: burst + 2 }, (_, n) =>
        (n % 2 === 0 ? a : b).update(`C${n}/1.0`, async () => void (await send(`card-${n}`)())),
      ),
    );
    await vi.advanceTimersByTimeAsync(5000);
    const perUpdateMs = 60_000 / SLACK_PACING.updatesPerMinute;
    // Each alone would have sent all of them at once, twice Slack's budget between them.
    expect(sent.filter((entry) => entry.at === 0)).toHaveLength(burst);
    expect(sent.slice(burst).map((entry) => entry.at)).toEqual([perUpdateMs, 2 * perUpdateMs]);
  });

  it('keeps its own pace, and says so, when the store does not answer', async () => {
    const unclaimed: string[] = [];
    const pacer = createChannelPacer({
      claimSlot: async () => {
        throw new Error('connection terminated');
      },
      slotUnclaimed: (channel) => unclaimed.push(channel),
    });
    const { sent, send } = recorder();
    const posts = [1, 2].map((n) => pacer.message('C_OPS', send(`ops-${n}`)));
    await vi.advanceTimersByTimeAsync(3000);
    expect(await Promise.all(posts)).toEqual(['ops-1', 'ops-2']);
    expect(sent.map((entry) => entry.at)).toEqual([0, 1000]);
    expect(unclaimed).toEqual(['C_OPS', 'C_OPS']);
  });
});
