import { describe, expect, it } from 'vitest';
import {
  formatGiB,
  formatHoursMinutes,
  formatMoney,
  storageBar,
} from '../../../src/slack/block-kit/format.js';

const GIB = 1024 ** 3;

describe('storageBar', () => {
  it('draws used over total in ten cells with a percentage', () => {
    expect(storageBar(String(20 * GIB), String(50 * GIB))).toBe('▓▓▓▓░░░░░░ 40% of 50 GiB');
    expect(storageBar('0', String(100 * GIB))).toBe('░░░░░░░░░░ 0% of 100 GiB');
    expect(storageBar(String(50 * GIB), String(50 * GIB))).toBe('▓▓▓▓▓▓▓▓▓▓ 100% of 50 GiB');
  });

  it('shows a dash where the API sent null or garbage', () => {
    expect(storageBar(null, null)).toBe('—');
    expect(storageBar('123', null)).toBe('—');
    expect(storageBar(null, String(50 * GIB))).toBe('— of 50 GiB');
    expect(storageBar('lots', String(50 * GIB))).toBe('— of 50 GiB');
    expect(storageBar('0', '0')).toBe('—');
  });

  it('caps the bar when more is used than the total says', () => {
    expect(storageBar(String(60 * GIB), String(50 * GIB))).toBe('▓▓▓▓▓▓▓▓▓▓ 100% of 50 GiB');
  });
});

describe('formatGiB', () => {
  it('reads byte strings and numbers, with one decimal when needed', () => {
    expect(formatGiB('32212254720')).toBe('30 GiB');
    expect(formatGiB(7.5 * GIB)).toBe('7.5 GiB');
    expect(formatGiB(null)).toBe('—');
  });
});

describe('formatHoursMinutes', () => {
  it('shows fractional seconds as whole hours and minutes', () => {
    expect(formatHoursMinutes(43_512.7)).toBe('12 h 05 min');
    expect(formatHoursMinutes(2_700)).toBe('45 min');
    expect(formatHoursMinutes(0)).toBe('0 min');
  });
});

describe('formatMoney', () => {
  it('shows dollars and cents', () => {
    expect(formatMoney(12.345)).toBe('$12.35');
    expect(formatMoney(0)).toBe('$0.00');
  });
});
