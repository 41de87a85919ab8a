// Each person's poll at a moment of their own: spread evenly over the interval, the same moment every
// interval and on every replica, none missed or doubled when ticks drift, nothing left running after a
// stop.
import { describe, expect, it } from 'vitest';
import { createIntervalSpread } from '../../src/scheduler/interval-spread.js';
import { type HandSpreadTimer, handSpreadTimer } from '../support/hand-spread-timer.js';

const INTERVAL_MS = 5000;

/** People as Slack names them (team/user), as many as a busy workspace has. */
const people = (count: number) =>
  Array.from({ length: count }, (_, index) => {
    const id = `T0${(7_000_000 + index * 7919).toString(36).toUpperCase()}/U0${(9_000_000 + index * 104_729).toString(36).toUpperCase()}`;
    return [id, id] as const;
  });

/** Runs ticks `INTERVAL_MS` apart (plus `late` each), answering when each person was started. */
function run(
  timer: HandSpreadTimer,
  entries: ReadonlyArray<readonly [string, string]>,
  ticks: number,
  late: (tick: number) => number = () => 0,
) {
  const spread = createIntervalSpread({ intervalMs: INTERVAL_MS, timer });
  const started = new Map<string, number[]>();
  let at = timer.now();
  for (let tick = 0; tick < ticks; tick += 1) {
    at += tick === 0 ? 0 : INTERVAL_MS + late(tick);
    timer.advanceTo(at);
    spread.place(entries, (batch) => {
      for (const id of batch) started.set(id, [...(started.get(id) ?? []), timer.now()]);
    });
  }
  timer.advanceTo(at + 2 * INTERVAL_MS);
  return started;
}

describe('spreading polls over the interval', () => {
  it('starts each person at a moment of their own, evenly over the interval rather than all at the tick', () => {
    const timer = handSpreadTimer();
    const tickAt = timer.now();
    const started = run(timer, people(2000), 1);

    expect(started.size).toBe(2000);
    // In tenths of the interval, the starts are close to even: no tenth holds twice its share.
    const tenths = Array.from({ length: 10 }, () => 0);
    for (const [at] of started.values()) {
      const offset = (at ?? 0) - tickAt;
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(INTERVAL_MS);
      const tenth = Math.floor(offset / (INTERVAL_MS / 10));
      tenths[tenth] = (tenths[tenth] ?? 0) + 1;
    }
    expect(Math.max(...tenths)).toBeLessThan(2 * 200);
    expect(Math.min(...tenths)).toBeGreaterThan(200 / 2);
  });

  it('starts a person once an interval, an interval apart', () => {
    const timer = handSpreadTimer();
    const started = run(timer, people(300), 6);

    for (const [id, starts] of started) {
      expect(starts, id).toHaveLength(6);
      for (let index = 1; index < starts.length; index += 1) {
        expect((starts[index] ?? 0) - (starts[index - 1] ?? 0)).toBe(INTERVAL_MS);
      }
    }
  });

  it('misses and doubles no one when ticks come late or early, and starts a moment already past at once', () => {
    const timer = handSpreadTimer();
    const tickAt = timer.now();
    // Ticks drift late (the timer waits on a busy event loop) and one comes early.
    const started = run(timer, people(500), 8, (tick) => (tick === 5 ? -700 : 90));

    for (const [id, starts] of started) {
      // Eight ticks cover a little under eight intervals: seven or eight moments, by where a person's falls.
      expect(starts.length, id).toBeGreaterThanOrEqual(7);
      expect(starts.length, id).toBeLessThanOrEqual(8);
      expect((starts[0] ?? 0) - tickAt, id).toBeLessThan(INTERVAL_MS);
      for (let index = 1; index < starts.length; index += 1) {
        const gap = (starts[index] ?? 0) - (starts[index - 1] ?? 0);
        // An interval apart, give or take how late a tick came for a moment it found already past (and
        // the slot a moment is taken in, a hundredth of the interval): a miss would leave two intervals
        // between starts, a double almost none.
        const leeway = 90 + INTERVAL_MS / 100;
        expect(gap, id).toBeGreaterThanOrEqual(INTERVAL_MS - leeway);
        expect(gap, id).toBeLessThanOrEqual(INTERVAL_MS + leeway);
      }
    }
  });

  it('gives a person the same moment on every replica', () => {
    const entries = people(50);
    const first = run(handSpreadTimer(), entries, 1);
    // Another replica, its ticks a third of an interval off the first one's.
    const second = run(handSpreadTimer(1_700_000_000_000 + INTERVAL_MS / 3), entries, 1);
    for (const [id] of entries) {
      const a = first.get(id)?.[0] ?? 0;
      const b = second.get(id)?.[0] ?? 0;
      const apart = (((b - a) % INTERVAL_MS) + INTERVAL_MS) % INTERVAL_MS;
      // The same instant, but for a moment early in the second replica's first slot, started with its tick.
      expect(Math.min(apart, INTERVAL_MS - apart), id).toBeLessThanOrEqual(INTERVAL_MS / 100);
    }
  });

  it('drops what has not started when halted', () => {
    const timer = handSpreadTimer();
    const spread = createIntervalSpread({ intervalMs: INTERVAL_MS, timer });
    const started: string[] = [];
    spread.place(people(200), (batch) => started.push(...batch));
    const before = started.length;
    expect(timer.pending).toBeGreaterThan(0);

    spread.halt();
    timer.advanceTo(timer.now() + 2 * INTERVAL_MS);
    expect(started).toHaveLength(before);
    expect(timer.pending).toBe(0);
  });
});
