// When each person's cost check begins (check-starts.ts): a small team at once, thousands spread out.
import { describe, expect, it } from 'vitest';
import { createCheckStarts } from '../../../src/features/cost-alerts/check-starts.js';

const EVERY_MS = 5 * 60_000;
const TICK_MS = 5000;
const T0 = Date.UTC(2026, 10, 27, 9, 0);

const people = (count: number) => Array.from({ length: count }, (_, index) => `T1/U${index}`);

/** Asks about every person each tick as the poller does, beginning each allowed check; checks begun per tick. */
function simulate(everyone: readonly string[], minutes: number): number[] {
  const starts = createCheckStarts(EVERY_MS);
  const perTick: number[] = [];
  for (let at = T0; at < T0 + minutes * 60_000; at += TICK_MS) {
    let begun = 0;
    for (const person of everyone) {
      if (starts.due(person, at) && starts.begin(person, at)) begun += 1;
    }
    perTick.push(begun);
  }
  return perTick;
}

describe('when cost checks begin', () => {
  it('checks a small team on its first tick, then each person once every interval', () => {
    const perTick = simulate(people(80), 11);
    expect(perTick[0]).toBe(80);
    const ticksPerInterval = EVERY_MS / TICK_MS;
    expect(perTick.slice(1, ticksPerInterval)).toEqual(Array(ticksPerInterval - 1).fill(0));
    expect(perTick[ticksPerInterval]).toBe(80);
    expect(perTick[2 * ticksPerInterval]).toBe(80);
  });

  // 5,000 people taken on at once were all due in the same tick, and again together five minutes later:
  // a few database statements each, in one tick, held up every watch's poll.
  it('spreads thousands of people taken on at once over the interval, and keeps them spread', () => {
    const perTick = simulate(people(5000), 16);
    const evenShare = 5000 / (EVERY_MS / TICK_MS);
    expect(perTick[0]).toBeLessThanOrEqual(100);
    expect(Math.max(...perTick)).toBeLessThanOrEqual(3 * evenShare);
    // Everyone is checked within the first interval, and once in every interval after it.
    const firstInterval = perTick.slice(0, EVERY_MS / TICK_MS);
    expect(firstInterval.reduce((sum, begun) => sum + begun, 0)).toBe(5000);
    const thirdInterval = perTick.slice((2 * EVERY_MS) / TICK_MS, (3 * EVERY_MS) / TICK_MS);
    expect(thirdInterval.reduce((sum, begun) => sum + begun, 0)).toBe(5000);
  });

  it('keeps a yes until the check begins, without taking another place', () => {
    const starts = createCheckStarts(EVERY_MS);
    expect(starts.due('T1/U1', T0)).toBe(true);
    // The list failed: the next tick asks again and is still allowed.
    expect(starts.due('T1/U1', T0 + TICK_MS)).toBe(true);
    expect(starts.begin('T1/U1', T0 + TICK_MS)).toBe(true);
    expect(starts.due('T1/U1', T0 + 2 * TICK_MS)).toBe(false);
    // A list made for the person's watches between checks begins no check.
    expect(starts.begin('T1/U1', T0 + 2 * TICK_MS)).toBe(false);
  });
});
