import { describe, expect, it } from 'vitest';
import { costAtRate, roundToCents, sumOfCents, usageCost } from '../../src/domain/money.js';
import { hoursRunningSince, runningSince } from '../../src/domain/running-time.js';
import type { MachineEvent, MachineUtilization } from '../../src/paperspace/schemas.js';

const event = (name: string, state: string, dtFinished: string | null, dtCreated = '2026-11-01T00:00:00Z') =>
  ({ name, state, errorMsg: '', handle: name, dtModified: dtCreated, dtFinished, dtCreated }) as MachineEvent;

function utilization(secondsUsed: number, storageSeconds: number, month = '2026-11'): MachineUtilization {
  return {
    machineId: 'ps1',
    utilization: { machineId: 'ps1', secondsUsed, hourlyRate: '0.51', billingMonth: month },
    storageUtilization: {
      machineId: 'ps1',
      secondsUsed: storageSeconds,
      monthlyRate: '6.00',
      billingMonth: month,
    },
  };
}

describe('running cost', () => {
  it('counts hours since a start, and none for a start in the future', () => {
    const start = Date.parse('2026-11-24T08:00:00Z');
    expect(hoursRunningSince(start, start + 90 * 60_000)).toBe(1.5);
    expect(hoursRunningSince(start, start - 1000)).toBe(0);
  });

  it('charges the hourly rate pro rata by the second', () => {
    expect(costAtRate(0.51, 7200)).toBeCloseTo(1.02, 10);
    expect(costAtRate(0.51, -5)).toBe(0);
  });

  it('dates the current run from its first start after the last stop, a restart within it included', () => {
    const events = [
      event('start', 'done', '2026-11-20T08:00:00Z'),
      event('stop', 'done', '2026-11-20T18:00:00Z'),
      event('start', 'done', '2026-11-23T09:30:00Z'),
      event('restart', 'done', '2026-11-23T11:00:00Z'),
    ];
    expect(runningSince(events)).toBe(Date.parse('2026-11-23T09:30:00Z'));
    expect(runningSince([event('stop', 'done', '2026-11-20T18:00:00Z')])).toBeUndefined();
  });

  it('dates a run still starting from its start, never from a run that ended before', () => {
    const events = [
      event('start', 'done', '2026-11-20T08:00:00Z'),
      event('stop', 'done', '2026-11-20T18:00:00Z'),
      event('start', 'error', '2026-11-23T09:00:00Z'),
      event('start', 'in progress', null, '2026-11-23T10:00:00Z'),
    ];
    expect(runningSince(events)).toBe(Date.parse('2026-11-23T10:00:00Z'));
  });

  it('adds compute and the share of the month the disk existed', () => {
    // 10 hours at $0.51, and the disk existed 15 of November's 30 days: half of $6.
    const cost = usageCost(utilization(36_000, 15 * 86_400));
    expect(cost.compute).toBeCloseTo(5.1, 10);
    expect(cost.storage).toBeCloseTo(3, 10);
    expect(cost.total).toBeCloseTo(8.1, 10);
    expect(cost.monthDays).toBe(30);
  });

  it('has no total when a rate cannot be read', () => {
    const unreadable = utilization(3600, 30 * 86_400);
    unreadable.utilization.hourlyRate = 'C4 hourly';
    expect(usageCost(unreadable).total).toBeUndefined();
    expect(usageCost(unreadable).storage).toBeCloseTo(6, 10);
  });

  it('shows parts that add up to the shown total: each part in cents, the total their sum', () => {
    // Compute $0.024 and storage $0.004 add up to $0.028, which rounded once reads $0.03; shown as
    // $0.02 + $0.00 the total must read $0.02.
    const cost = usageCost(utilization(170, 0.02 * 86_400));
    expect(cost.compute).toBe(0.02);
    expect(cost.storage).toBe(0);
    expect(cost.total).toBe(0.02);
  });

  it('adds amounts in whole cents, with no float drift', () => {
    expect(sumOfCents([0.1, 0.2])).toBe(0.3);
    expect(roundToCents(0.125 + 0.0049)).toBe(0.13);
  });
});
