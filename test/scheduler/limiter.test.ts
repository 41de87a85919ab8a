// The cap on people polled at once holds across ticks: a poll still under way keeps its place.
import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../src/scheduler/concurrency.js';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most `limit` pieces at once, the rest in the order they came, never limit + 1', async () => {
    const limiter = createLimiter(2);
    const releases: Array<() => void> = [];
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const piece = (n: number) =>
      limiter.run(async () => {
        started.push(n);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return n;
      });
    const first = [piece(1), piece(2), piece(3), piece(4)];
    await flush();
    expect(started).toEqual([1, 2]);

    releases.shift()?.();
    // A newcomer arriving as a place frees up waits behind those already waiting.
    const late = piece(5);
    await flush();
    expect(started).toEqual([1, 2, 3]);
    expect(most).toBe(2);

    while (started.length < 5 || releases.length > 0) {
      releases.shift()?.();
      await flush();
    }
    expect(await Promise.all([...first, late])).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('frees the place of a piece that fails', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
  });
});
