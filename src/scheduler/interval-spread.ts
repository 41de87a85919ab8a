// Work that recurs every interval for each of many ids (a person's watch poll), started at each id's own
// moment of the interval instead of all at the tick. Started together, a replica's polls come back
// together, and the completions they find queue behind each other and behind the lists still being
// read, so a reply reaches Slack long after Paperspace answered. Spread, a replica makes the same calls
// at an even pace, and each finds the work before it done.
//
// An id's moment is its phase (phase.ts) on the wall clock: the same in every interval and on every
// replica, so each id is polled once an interval, an interval apart, and keeps its moment when it moves
// to another replica (the interval of the handover may still see it twice or not at all, as the two
// replicas' ticks cover different stretches). Moments are taken in slots of the wall clock (a twentieth
// of a second at 5 s), one timer per slot rather than per id.
import { phaseOf } from './phase.js';

/** The clock and timer a spread keeps time with (the scheduler's: SchedulerTimers.spread). */
export interface SpreadTimer {
  /** The wall clock moments are read on (Date.now): every replica's reads the same. */
  now(): number;
  /** Runs `run` once after `ms`, always later and never during the call; the function it answers cancels it. */
  after(ms: number, run: () => void): () => void;
}

export interface IntervalSpread {
  /**
   * Hands each entry to `start` at its id's moment of the interval this tick covers, entries of one
   * slot together and in the order given.
   */
  place<T>(entries: ReadonlyArray<readonly [id: string, value: T]>, start: (batch: T[]) => void): void;
  /** Drops every batch not yet started (the scheduler is stopping). */
  halt(): void;
}

/** Slots per interval: the moments are this fine, and a tick sets at most this many timers. */
const SLOTS_PER_INTERVAL = 100;

export function createIntervalSpread(options: { intervalMs: number; timer: SpreadTimer }): IntervalSpread {
  const { intervalMs, timer } = options;
  const slotMs = intervalMs / SLOTS_PER_INTERVAL;
  /** Where the last tick's cover ended: the next tick's starts there. */
  let coveredUntil = Number.NEGATIVE_INFINITY;
  /** How to cancel each batch still waiting for its slot. */
  const waiting = new Set<() => void>();

  return {
    place<T>(entries: ReadonlyArray<readonly [string, T]>, start: (batch: T[]) => void) {
      const at = timer.now();
      // Each tick covers from where the last one's cover ended to one interval past itself, so every
      // moment is some tick's and none is two ticks', whether the timer's ticks drift or a claim is slow
      // (a cover a little over an interval long holds an id's moment twice, an interval apart). The
      // first tick, and one after a stall longer than an interval, cover from now: what a stall missed
      // is not made up all at once.
      const to = at + intervalMs;
      const from = coveredUntil >= at - intervalMs ? Math.min(coveredUntil, to) : at;
      coveredUntil = to;

      // By slot of the wall clock (its start, epoch ms), so a person's moment is the same instant on
      // every replica; a moment already past (the claim took a while, or the tick came late) is due now.
      const slots = new Map<number, T[]>();
      for (const [id, value] of entries) {
        const phase = phaseOf(id, intervalMs);
        for (let moment = from + modulo(phase - from, intervalMs); moment < to; moment += intervalMs) {
          const slotStart = Math.max(at, Math.floor(moment / slotMs) * slotMs);
          const batch = slots.get(slotStart);
          if (batch === undefined) slots.set(slotStart, [value]);
          else batch.push(value);
        }
      }
      for (const [slotStart, batch] of slots) {
        if (slotStart === at) {
          start(batch);
          continue;
        }
        // `after` calls back later, never during the call: the cancel is in the set by then.
        const cancel = timer.after(slotStart - at, () => {
          waiting.delete(cancel);
          start(batch);
        });
        waiting.add(cancel);
      }
    },

    halt() {
      for (const cancel of waiting) cancel();
      waiting.clear();
    },
  };
}

function modulo(value: number, period: number): number {
  return ((value % period) + period) % period;
}
