import { describe, expect, it } from 'vitest';
import { leaseOf } from '../../../src/features/policies/lease.js';

const HOUR = 3_600_000;
const at = (iso: string) => Date.parse(iso);
const set = { setBy: 'U0MAYA', setAt: at('2024-05-15T08:00:00Z') };
const none = new Map<string, number>();

describe('a machine lease', () => {
  it('counts a run limit from the run start, or from when the rule was set if that is later', () => {
    const policies = { max_run: { ms: 12 * HOUR, ...set } };
    const started = at('2024-05-15T09:00:00Z');
    const lease = leaseOf({
      policies,
      machineId: 'm1',
      runningSince: started,
      extensions: none,
      exempt: false,
    });
    expect(lease).toMatchObject({
      kind: 'max_run',
      stopAt: started + 12 * HOUR,
      warnAt: started + 11.5 * HOUR,
    });
    const running = at('2024-05-14T09:00:00Z');
    const already = leaseOf({
      policies,
      machineId: 'm1',
      runningSince: running,
      extensions: none,
      exempt: false,
    });
    expect(already?.stopAt).toBe(set.setAt + 12 * HOUR);
  });

  it('stops at the first start of off-hours after the run began, skipping weekends for weekdays, in the zone given', () => {
    const policies = {
      off_hours: {
        start: '20:00',
        end: '07:00',
        days: 'weekdays' as const,
        timezone: 'Europe/Berlin',
        ...set,
      },
    };
    // Friday 2024-05-17 21:00 in Berlin (19:00 UTC), after that day's start: the next is Monday 20:00 Berlin.
    const friday = at('2024-05-17T19:00:00Z');
    const lease = leaseOf({
      policies,
      machineId: 'm1',
      runningSince: friday,
      extensions: none,
      exempt: false,
    });
    expect(new Date(lease?.stopAt ?? 0).toISOString()).toBe('2024-05-20T18:00:00.000Z');
  });

  it('takes the soonest rule, moves a stop to its extension, and gives an exempted machine none', () => {
    const policies = {
      max_run: { ms: 2 * HOUR, ...set },
      off_hours: { start: '20:00', end: '07:00', days: 'daily' as const, timezone: 'UTC', ...set },
    };
    const started = at('2024-05-15T19:00:00Z');
    const input = { policies, machineId: 'm1', runningSince: started, extensions: none, exempt: false };
    expect(leaseOf(input)).toMatchObject({ kind: 'off_hours', stopAt: at('2024-05-15T20:00:00Z') });
    const extended = new Map([['m1/off_hours', at('2024-05-16T00:00:00Z')]]);
    expect(leaseOf({ ...input, extensions: extended })).toMatchObject({
      kind: 'max_run',
      stopAt: started + 2 * HOUR,
    });
    // An extension older than the rule's next stop (yesterday's) no longer moves it.
    const stale = new Map([['m1/off_hours', at('2024-05-15T10:00:00Z')]]);
    expect(leaseOf({ ...input, extensions: stale })?.stopAt).toBe(at('2024-05-15T20:00:00Z'));
    expect(leaseOf({ ...input, exempt: true })).toBeUndefined();
  });
});
