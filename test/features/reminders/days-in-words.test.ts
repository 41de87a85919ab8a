import { describe, expect, it } from 'vitest';
import { daysInWords } from '../../../src/features/reminders/days-in-words.js';

describe('a reminder’s cron days said in words', () => {
  it('names week days, ranges and lists as people say them', () => {
    expect(daysInWords('*', '*', 'mon-fri')).toBe('Monday to Friday');
    expect(daysInWords('*', '*', 'mon,wed,fri')).toBe('Monday, Wednesday and Friday');
    expect(daysInWords('*', '*', '0,6')).toBe('Sunday and Saturday');
    expect(daysInWords('*', '*', '7')).toBe('Sunday');
    expect(daysInWords('*', '*', 'SAT-SUN')).toBe('Saturday to Sunday');
  });

  it('names days of the month with their ordinals', () => {
    expect(daysInWords('1', '*', '*')).toBe('the 1st of each month');
    expect(daysInWords('2,3,11,22', '*', '*')).toBe('the 2nd, 3rd, 11th and 22nd of each month');
  });

  it('says as typed what words could get wrong: steps, months, both kinds of day', () => {
    expect(daysInWords('*', '*', '*/2')).toBe('the days `* * */2`');
    expect(daysInWords('1', '6', '*')).toBe('the days `1 6 *`');
    expect(daysInWords('1', '*', 'mon')).toBe('the days `1 * mon`');
  });
});
