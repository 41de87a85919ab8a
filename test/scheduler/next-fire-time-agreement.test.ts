// nextFireTime must name the occurrence node-cron really fires. node-cron answers "what next?" only
// from the real clock (getNextRuns), so the oracle freezes Date at the instant asked about; the
// expressions are the ones /ps remind and /ps digest build (HH:MM and day fields), around the days
// clocks change.
import fc from 'fast-check';
import cron from 'node-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextFireTime } from '../../src/scheduler/cron-engine.js';

function nodeCronNext(expression: string, timezone: string, after: number): number {
  vi.useFakeTimers({ toFake: ['Date'], now: after });
  const task = cron.createTask(expression, () => undefined, { timezone });
  try {
    const [next] = task.getNextRuns(1);
    if (next === undefined) throw new Error(`node-cron found no run for ${expression}`);
    return next.getTime();
  } finally {
    void task.destroy();
    vi.useRealTimers();
  }
}

function localTime(at: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    dateStyle: 'short',
    timeStyle: 'medium',
  }).format(at);
}

const ZONES = [
  'UTC',
  'Europe/Amsterdam',
  'America/New_York',
  'America/Sao_Paulo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
];
const DAY_FIELDS = [
  '* * 1-5',
  '* * *',
  '* * mon,wed,fri',
  '* * fri-mon',
  '1,15 * *',
  'L * *',
  'L-3 * *',
  '15W * *',
  '* * 5L',
  '* * 1#2',
  '1 * 1',
  '29 2 *',
  '* nov-feb 0',
];
// Starts within a day or two of a change somewhere in ZONES (2024), and plain days.
const STARTS = [
  '2024-03-09T12:00:00Z',
  '2024-03-30T12:00:00Z',
  '2024-04-06T00:00:00Z',
  '2024-09-07T12:00:00Z',
  '2024-09-28T12:00:00Z',
  '2024-10-05T12:00:00Z',
  '2024-10-26T12:00:00Z',
  '2024-11-02T12:00:00Z',
  '2024-05-15T09:00:00Z',
].map(Date.parse);

describe('nextFireTime and node-cron', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('name the same occurrence for every reminder and digest schedule, daylight-saving days included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.constantFrom(...DAY_FIELDS),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom(0, 1, 15, 30, 45, 59),
        fc.constantFrom(...STARTS),
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        (zone, days, hour, minute, start, minutesLater) => {
          const expression = `${minute} ${hour} ${days}`;
          const after = start + minutesLater * 60_000;
          const ours = nextFireTime(expression, zone, after);
          const theirs = nodeCronNext(expression, zone, after);
          expect(ours).toBeDefined();
          if (ours === theirs) return;
          // The one allowed difference: a local time that happens twice when clocks go back, where
          // node-cron picks the second pass in some zones. It is the same local time, at most 1h apart.
          expect(localTime(ours ?? 0, zone)).toBe(localTime(theirs, zone));
          expect(Math.abs((ours ?? 0) - theirs)).toBeLessThanOrEqual(60 * 60_000);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('skip a time the clocks jump over, as node-cron does', () => {
    const after = Date.parse('2024-03-09T12:00:00Z');
    expect(nextFireTime('30 2 * * *', 'America/New_York', after)).toBe(
      nodeCronNext('30 2 * * *', 'America/New_York', after),
    );
  });
});
