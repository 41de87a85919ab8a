import { Writable } from 'node:stream';
import cron from 'node-cron';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { createNodeCronEngine, isKnownTimeZone, nextFireTime } from '../../src/scheduler/cron-engine.js';

const utc = (iso: string) => Date.parse(iso);
const iso = (at: number | undefined) => (at === undefined ? undefined : new Date(at).toISOString());

describe('nextFireTime', () => {
  it('reads the expression in the given time zone', () => {
    // Wednesday 09:00 UTC; 19:00 in Amsterdam (CEST) is 17:00 UTC, in New York (EDT) 23:00 UTC.
    const after = utc('2024-05-15T09:00:00Z');
    expect(iso(nextFireTime('0 19 * * 1-5', 'Europe/Amsterdam', after))).toBe('2024-05-15T17:00:00.000Z');
    expect(iso(nextFireTime('0 19 * * 1-5', 'America/New_York', after))).toBe('2024-05-15T23:00:00.000Z');
    expect(iso(nextFireTime('0 19 * * 1-5', 'Asia/Tokyo', after))).toBe('2024-05-15T10:00:00.000Z');
  });

  it('skips days the expression leaves out and never answers the time it was asked after', () => {
    const friday = utc('2024-05-17T17:00:00Z');
    expect(iso(nextFireTime('0 19 * * 1-5', 'Europe/Amsterdam', friday))).toBe('2024-05-20T17:00:00.000Z');
    expect(iso(nextFireTime('30 8 * * mon,wed', 'UTC', friday))).toBe('2024-05-20T08:30:00.000Z');
  });

  it('follows daylight saving: the same local time is another UTC time after the change', () => {
    // Amsterdam moves from CET to CEST on 2024-03-31.
    expect(iso(nextFireTime('0 19 * * *', 'Europe/Amsterdam', utc('2024-03-30T12:00:00Z')))).toBe(
      '2024-03-30T18:00:00.000Z',
    );
    expect(iso(nextFireTime('0 19 * * *', 'Europe/Amsterdam', utc('2024-03-31T12:00:00Z')))).toBe(
      '2024-03-31T17:00:00.000Z',
    );
  });

  it('passes over a local time that does not exist on the day the clocks go forward', () => {
    expect(iso(nextFireTime('30 2 * * *', 'Europe/Amsterdam', utc('2024-03-30T12:00:00Z')))).toBe(
      '2024-04-01T00:30:00.000Z',
    );
  });

  it('finds a day that comes only every four years', () => {
    expect(iso(nextFireTime('0 9 29 2 *', 'UTC', utc('2024-03-01T00:00:00Z')))).toBe(
      '2028-02-29T09:00:00.000Z',
    );
  });
});

describe('isKnownTimeZone', () => {
  it('accepts IANA names and refuses anything else', () => {
    expect(isKnownTimeZone('Europe/Amsterdam')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

describe('the node-cron engine', () => {
  const taskNames = () => [...cron.getTasks().values()].map((task) => task.name);
  const logger = createLogger({
    level: 'silent',
    destination: new Writable({ write: (_c, _e, cb) => cb() }),
  });

  it('fires with the occurrence it matched, on the second, and not after it is stopped', async () => {
    const engine = createNodeCronEngine(logger);
    const fired: number[] = [];
    const job = engine.schedule(
      { name: 'every-second', expression: '* * * * * *', timezone: 'UTC' },
      async (at) => {
        fired.push(at);
      },
    );
    try {
      await vi.waitFor(() => expect(fired.length).toBeGreaterThan(0), { timeout: 2500, interval: 20 });
      expect(taskNames()).toContain('every-second');
    } finally {
      job.stop();
    }
    expect((fired[0] ?? 1) % 1000).toBe(0);
    expect(taskNames()).not.toContain('every-second');
  });

  it('refuses an expression it cannot run', () => {
    const engine = createNodeCronEngine(logger);
    expect(() =>
      engine.schedule({ name: 'bad', expression: '61 * * * *', timezone: 'UTC' }, async () => {}),
    ).toThrow();
  });
});
