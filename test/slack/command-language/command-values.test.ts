import { describe, expect, it } from 'vitest';
import { parseReminderDays } from '../../../src/features/reminders/reminder-days.js';
import { parseWaitState } from '../../../src/features/watches/commands/wait.js';
import { REGIONS } from '../../../src/paperspace/constants.js';
import {
  parseBillingMonth,
  parseTimeOfDay,
  REGION_CODE_LIST,
  readMachineType,
  resolveRegion,
} from '../../../src/slack/command-language/command-values.js';

describe('resolveRegion', () => {
  it('maps each short code, in any case, to the exact contract string', () => {
    expect(REGION_CODE_LIST).toEqual(['CA1', 'NY2', 'AMS1']);
    expect(resolveRegion('ca1')).toBe('West Coast (CA1)');
    expect(resolveRegion('NY2')).toBe('East Coast (NY2)');
    expect(resolveRegion('Ams1')).toBe('Europe (AMS1)');
  });

  it('accepts the full contract strings in any case', () => {
    for (const region of REGIONS) expect(resolveRegion(region.toUpperCase())).toBe(region);
  });

  it('answers null for anything else', () => {
    expect(resolveRegion('CA2')).toBeNull();
    expect(resolveRegion('West Coast')).toBeNull();
    expect(resolveRegion('')).toBeNull();
  });
});

describe('readMachineType', () => {
  it('tells dedicated GPU types from the others, ignoring case', () => {
    expect(readMachineType('gpu+')).toEqual({ kind: 'dedicated', machineType: 'GPU+' });
    expect(readMachineType('c10')).toEqual({ kind: 'other', machineType: 'C10' });
    expect(readMachineType('A100')).toEqual({ kind: 'unknown' });
  });
});

describe('parseTimeOfDay', () => {
  it('reads 24-hour times and pads one-digit hours', () => {
    expect(parseTimeOfDay('00:00')).toEqual({ ok: true, value: { time: '00:00', hour: 0, minute: 0 } });
    expect(parseTimeOfDay('9:05')).toEqual({ ok: true, value: { time: '09:05', hour: 9, minute: 5 } });
    expect(parseTimeOfDay('23:59')).toEqual({ ok: true, value: { time: '23:59', hour: 23, minute: 59 } });
  });

  it('reads the 12-hour clock: 7pm, 7:30pm, 12am is midnight and 12pm noon', () => {
    expect(parseTimeOfDay('7pm')).toEqual({ ok: true, value: { time: '19:00', hour: 19, minute: 0 } });
    expect(parseTimeOfDay('7:30PM')).toEqual({ ok: true, value: { time: '19:30', hour: 19, minute: 30 } });
    expect(parseTimeOfDay('9a.m.')).toEqual({ ok: true, value: { time: '09:00', hour: 9, minute: 0 } });
    expect(parseTimeOfDay('12am')).toEqual({ ok: true, value: { time: '00:00', hour: 0, minute: 0 } });
    expect(parseTimeOfDay('12pm')).toEqual({ ok: true, value: { time: '12:00', hour: 12, minute: 0 } });
  });

  it.each(['24:00', '12:60', '13pm', '0am', '7:60pm', '19', '19:0', '019:00', ''])('refuses %j', (text) => {
    expect(parseTimeOfDay(text).ok).toBe(false);
  });
});

describe('parseBillingMonth', () => {
  it('accepts months 01 to 12 and refuses the rest', () => {
    expect(parseBillingMonth('2025-01')).toEqual({ ok: true, value: '2025-01' });
    expect(parseBillingMonth('2025-12')).toEqual({ ok: true, value: '2025-12' });
    for (const text of ['2025-00', '2025-13', '2025-1', '25-01', '2025/01'])
      expect(parseBillingMonth(text).ok).toBe(false);
  });
});

describe('parseWaitState', () => {
  it('accepts the waitable states only', () => {
    expect(parseWaitState('ServiceReady')).toEqual({ ok: true, value: 'serviceready' });
    expect(parseWaitState('starting')).toEqual({ ok: false, error: 'use one of off, serviceready, ready' });
  });
});

describe('parseReminderDays', () => {
  it('defaults to weekdays and joins the time into the cron expression', () => {
    expect(parseReminderDays([], 19, 0)).toEqual({
      ok: true,
      value: { schedule: 'weekdays', cron: '0 19 * * 1-5' },
    });
    expect(parseReminderDays(['DAILY'], 7, 30)).toEqual({
      ok: true,
      value: { schedule: 'daily', cron: '30 7 * * *' },
    });
  });

  it('accepts the three cron day fields, as words or one quoted token, or the day-of-week field alone', () => {
    const expected = { ok: true, value: { schedule: 'cron', cron: '0 8 1,15 * *' } };
    expect(parseReminderDays(['1,15', '*', '*'], 8, 0)).toEqual(expected);
    expect(parseReminderDays(['1,15 * *'], 8, 0)).toEqual(expected);
    expect(parseReminderDays(['sat,sun'], 8, 0)).toEqual({
      ok: true,
      value: { schedule: 'cron', cron: '0 8 * * sat,sun' },
    });
  });

  it('refuses a full cron expression, because the time comes from HH:MM', () => {
    const result = parseReminderDays(['0', '19', '*', '*', '1-5'], 19, 0);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('leave minute and hour out');
  });

  it('says days it does not know in words, with the likeliest meant', () => {
    const typo = parseReminderDays(['weekdayz'], 19, 0);
    expect(typo).toEqual({
      ok: false,
      error: expect.stringContaining(
        '"weekdayz" is not days I know (did you mean weekdays?): say weekdays, daily, or days like mon-fri',
      ),
    });
    const day = parseReminderDays(['mon,wedd'], 19, 0);
    expect(day.ok === false && day.error).toContain('(did you mean wed?)');
    expect(day.ok === false && day.error).not.toMatch(/cron|field/);
  });

  it('names the cron field node-cron refuses', () => {
    const result = parseReminderDays(['*', '13', '*'], 19, 0);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('month: 13');
  });
});
