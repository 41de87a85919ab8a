// The engine's timing contract for work a tick hands off (completion posts waiting their turn in a
// channel's queue): the timer's ticks go on without it, so one busy channel never holds back every
// other person's poll, while an explicit tick() and stop() wait for it to end.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import type { SchedulerJob } from '../../src/scheduler/job.js';
import { createScheduler, type SchedulerTimers } from '../../src/scheduler/scheduler.js';

/** Timers the test fires by hand. */
function handTimers(): SchedulerTimers & { fire(): void } {
  let run: (() => void) | undefined;
  return {
    every(_ms, callback) {
      run = callback;
      return () => {
        run = undefined;
      };
    },
    fire: () => run?.(),
  };
}

/** A job whose every tick hands off work that ends only when the test releases it. */
function handingOffJob() {
  const handedOff: Array<() => void> = [];
  const pending = new Set<Promise<void>>();
  let ticks = 0;
  const job: SchedulerJob = {
    name: 'posts',
    async tick() {
      ticks += 1;
      const work = new Promise<void>((resolve) => {
        handedOff.push(() => resolve());
      });
      pending.add(work.then(() => void pending.delete(work)));
    },
    async settled() {
      await Promise.all([...pending]);
    },
  };
  return {
    job,
    ticks: () => ticks,
    releaseAll: () => {
      for (const release of handedOff.splice(0)) release();
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));
const logger = createLogger({ level: 'silent' });

describe('the scheduler and work a tick hands off', () => {
  it('ticks on the timer while earlier handed-off work is still under way', async () => {
    const timers = handTimers();
    const { job, ticks, releaseAll } = handingOffJob();
    const scheduler = createScheduler({ jobs: [job], logger, pollIntervalMs: 5000, timers, replicaId: 'r1' });
    await scheduler.start();
    timers.fire();
    await flush();
    timers.fire();
    await flush();
    expect(ticks()).toBe(2);
    releaseAll();
    await scheduler.stop();
  });

  it('resolves an explicit tick only once the work it handed off has ended', async () => {
    const { job, releaseAll } = handingOffJob();
    const scheduler = createScheduler({
      jobs: [job],
      logger,
      pollIntervalMs: 5000,
      timers: handTimers(),
      replicaId: 'r1',
    });
    let done = false;
    const ticking = scheduler.tick().then(() => {
      done = true;
    });
    await flush();
    expect(done).toBe(false);
    releaseAll();
    await ticking;
    expect(done).toBe(true);
  });

  it('waits at stop for handed-off work, so nothing is cut off at shutdown', async () => {
    const timers = handTimers();
    const { job, releaseAll } = handingOffJob();
    const scheduler = createScheduler({ jobs: [job], logger, pollIntervalMs: 5000, timers, replicaId: 'r1' });
    await scheduler.start();
    timers.fire();
    await flush();
    let stopped = false;
    const stopping = scheduler.stop().then(() => {
      stopped = true;
    });
    await flush();
    expect(stopped).toBe(false);
    releaseAll();
    await stopping;
    expect(stopped).toBe(true);
  });
});
