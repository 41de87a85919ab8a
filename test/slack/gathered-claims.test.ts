// The request guard's claims reach the store gathered: a burst arriving over a few milliseconds is one
// turn of the store's event loop (one SQLite transaction), and each request still gets its own answer.
import { describe, expect, it, vi } from 'vitest';
import { CLAIM_GATHER_MS, gatheredClaims } from '../../src/slack/gathered-claims.js';
import { openStore } from '../../src/store/store.js';

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('gathered replay claims', () => {
  it('sends claims asked for in separate turns of the event loop to the store in one, each answered on its own', async () => {
    // The gathering window is a timer: faked, so the four turns below fall inside it however slowly a
    // busy machine runs them (with a real 5 ms timer a collection pause could close the window early).
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    const turns: number[] = [];
    let turn = 0;
    const tick = () => {
      turn += 1;
      ticking = setImmediate(tick);
    };
    let ticking = setImmediate(tick);
    const claimed = new Set<string>();
    const claim = gatheredClaims(async (hash) => {
      turns.push(turn);
      if (claimed.has(hash)) return false;
      claimed.add(hash);
      return true;
    });
    try {
      const answers: Promise<boolean>[] = [];
      for (const hash of ['a', 'b', 'a', 'c']) {
        answers.push(claim(hash, Date.now() + 60_000));
        await nextTurn();
      }
      expect(turns).toEqual([]);
      vi.advanceTimersByTime(CLAIM_GATHER_MS);
      expect(await Promise.all(answers)).toEqual([true, true, false, true]);
      // Each was asked for in a turn of its own; the store saw them all in one.
      expect(turns).toHaveLength(4);
      expect(new Set(turns).size).toBe(1);
    } finally {
      clearImmediate(ticking);
      vi.useRealTimers();
    }
  });

  it('answers a claim asked for after a gathering was sent in the next one', async () => {
    const claim = gatheredClaims(async () => true);
    expect(await claim('first', Date.now() + 60_000)).toBe(true);
    await pause(CLAIM_GATHER_MS * 2);
    expect(await claim('second', Date.now() + 60_000)).toBe(true);
  });

  it("fails each gathered claim with the store's failure, and the next gathering works again", async () => {
    let down = true;
    const claim = gatheredClaims(async () => {
      if (down) throw new Error('database unreachable');
      return true;
    });
    const failed = [claim('x', 1), claim('y', 1)].map((answer) => answer.then(() => 'claimed', String));
    expect(await Promise.all(failed)).toEqual(['Error: database unreachable', 'Error: database unreachable']);
    down = false;
    expect(await claim('z', 1)).toBe(true);
  });

  it('refuses on SQLite a replay gathered with its first request, and claims every other request once', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const claim = gatheredClaims((hash, expiresAt) => store.requestReplays.claim(hash, expiresAt));
      const hashes = Array.from({ length: 50 }, (_, index) => `hash-${index % 40}`);
      const answers = await Promise.all(hashes.map((hash) => claim(hash, Date.now() + 60_000)));
      expect(answers.filter(Boolean)).toHaveLength(40);
      expect(answers.slice(40).every((first) => !first)).toBe(true);
    } finally {
      await store.close();
    }
  });
});
