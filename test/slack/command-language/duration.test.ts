import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseDuration } from '../../../src/slack/command-language/duration.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['10m', 600_000],
    ['2h', 7_200_000],
    ['1h30m', 5_400_000],
    ['1h0m5s', 3_605_000],
    ['2H', 7_200_000],
    ['24h', MAX_DURATION_MS],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it('asks for a unit when only a number is given', () => {
    const result = parseDuration('30');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain('30m');
  });

  it.each(['0s', '0h0m'])('refuses the empty duration %s', (text) => {
    expect(parseDuration(text)).toEqual({ ok: false, error: 'the duration must be longer than 0' });
  });

  it.each(['24h1s', '25h', '1441m'])('refuses %s, longer than 24 hours', (text) => {
    expect(parseDuration(text)).toEqual({ ok: false, error: 'the duration can be at most 24h' });
  });

  it.each(['', '1.5h', '30m1h', '1h1h', '-5m', 'soon', '10 m', '1d'])(
    'refuses %j with an example of the format',
    (text) => {
      const result = parseDuration(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toContain('1h30m');
    },
  );
});
