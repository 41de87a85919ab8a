// The scheduler's spread timer (SchedulerTimers.spread) on a wall clock the test moves: each timer runs
// when the clock passes its due time, in due order, so a test sees which moment of an interval did what.
import type { SpreadTimer } from '../../src/scheduler/interval-spread.js';

export interface HandSpreadTimer extends SpreadTimer {
  /** Moves the clock to `ms` (epoch), running every timer due by then at its due time. */
  advanceTo(ms: number): void;
  /** Timers set and not yet run or cancelled. */
  readonly pending: number;
}

/** Starts at a whole number of 5 s intervals, so a moment's offset into the interval is its phase. */
export function handSpreadTimer(start = 1_700_000_000_000): HandSpreadTimer {
  let now = start;
  let timers: Array<{ due: number; run: () => void; order: number }> = [];
  let order = 0;
  return {
    now: () => now,
    after(ms, run) {
      const timer = { due: now + ms, run, order: order++ };
      timers.push(timer);
      return () => {
        timers = timers.filter((other) => other !== timer);
      };
    },
    advanceTo(ms) {
      for (;;) {
        const next = timers
          .filter((timer) => timer.due <= ms)
          .sort((a, b) => a.due - b.due || a.order - b.order)[0];
        if (next === undefined) break;
        timers = timers.filter((timer) => timer !== next);
        now = next.due;
        next.run();
      }
      now = ms;
    },
    get pending() {
      return timers.length;
    },
  };
}
