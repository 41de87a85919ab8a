/**
 * Runs `work` for every item, at most `limit` at a time, and waits for all of them. A failing item
 * does not stop the others; `work` is expected to handle (and log) its own failures.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Runs work with at most `limit` pieces under way at once, the rest waiting their turn in order. */
export interface Limiter {
  run<T>(work: () => Promise<T>): Promise<T>;
}

export function createLimiter(limit: number): Limiter {
  let running = 0;
  const waiting: Array<() => void> = [];
  // A finished piece hands its place straight to the next in line, so a newcomer can never slip in
  // between and make limit + 1.
  const take = () => {
    if (running < limit) {
      running += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      waiting.push(resolve);
    });
  };
  const give = () => {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  };
  return {
    async run(work) {
      await take();
      try {
        return await work();
      } finally {
        give();
      }
    },
  };
}

/** Work done between two turns of the event loop at most: a Slack request waits no longer than this. */
const SLICE_MS = 10;

/**
 * Runs `work` for every item in order, giving the event loop a turn (setImmediate) whenever a slice of
 * SLICE_MS has passed, so a long list never holds acks and timers back for longer than that.
 */
export async function forEachInSlices<T>(items: Iterable<T>, work: (item: T) => void): Promise<void> {
  let sliceStart = performance.now();
  for (const item of items) {
    work(item);
    if (performance.now() - sliceStart >= SLICE_MS) {
      await new Promise<void>((turn) => setImmediate(turn));
      sliceStart = performance.now();
    }
  }
}
