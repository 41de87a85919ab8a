// Time and chance for the emulator. Both are injected so that tests decide when a machine finishes
// starting and which request the fault injector picks, instead of sleeping and hoping.

/** Milliseconds since the epoch, like Date.now. */
export type Clock = () => number;

/** A clock that only moves when told to: tests advance it past a transition instead of sleeping. */
export interface FakeClock {
  readonly now: Clock;
  /** Moves the clock forward and answers the new time. */
  advance(ms: number): number;
  set(ms: number): void;
}

export function createFakeClock(start: number = Date.UTC(2024, 4, 15, 9, 0, 0)): FakeClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(`advance needs a finite, non-negative ms, got ${ms}`);
      current += ms;
      return current;
    },
    set(ms) {
      current = ms;
    },
  };
}

/**
 * A small deterministic generator (mulberry32) with values in [0, 1), so a run with --fail-rate can be
 * repeated exactly by giving the same seed.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
