import { describe, expect, it } from 'vitest';
import { closestMatch, editDistance } from '../../../src/slack/command-language/closest-match.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('list', 'lst')).toBe(1);
    expect(editDistance('stop', 'stops')).toBe(1);
    expect(editDistance('show', 'shew')).toBe(1);
    expect(editDistance('start', 'strat')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});

describe('closestMatch', () => {
  const words = ['start', 'stop', 'restart', 'list', 'availability', 'show', 'shares', 'share'];

  it('suggests the word one or two edits away', () => {
    expect(closestMatch('strat', words)).toBe('start');
    expect(closestMatch('lsit', words)).toBe('list');
    expect(closestMatch('RESTRAT', words)).toBe('restart');
  });

  it('suggests the only word a prefix of three or more letters starts', () => {
    expect(closestMatch('avail', words)).toBe('availability');
  });

  it('suggests nothing when no word is close', () => {
    expect(closestMatch('deploy', words)).toBeNull();
    expect(closestMatch('', words)).toBeNull();
    expect(closestMatch('x'.repeat(500), words)).toBeNull();
  });
});
