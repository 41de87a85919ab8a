import { describe, expect, it } from 'vitest';
import {
  createRedactor,
  parseErrorBody,
  parseRetryAfter,
  redactDeep,
} from '../../src/paperspace/response-body.js';

const keepAll = createRedactor([]);

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');

  it('reads delta-seconds, including fractions', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1_500);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Wed, 01 May 2024 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or unreadable header', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('parseErrorBody', () => {
  it('reads a bare JSON string as the message', () => {
    expect(parseErrorBody('"Machine is busy"', keepAll)).toEqual({
      body: 'Machine is busy',
      serverMessage: 'Machine is busy',
    });
  });

  it('joins the messages of a GraphQL errors array', () => {
    const parsed = parseErrorBody(JSON.stringify({ errors: [{ message: 'a' }, { message: 'b' }] }), keepAll);
    expect(parsed.serverMessage).toBe('a; b');
  });

  it('cuts a long message so it fits in a chat reply', () => {
    const parsed = parseErrorBody('x'.repeat(5000), keepAll);
    expect(parsed.serverMessage).toHaveLength(300);
    expect(parsed.body).toHaveLength(2000);
  });

  it('keeps JSON without a message as the body only', () => {
    expect(parseErrorBody('{"code":7}', keepAll)).toEqual({ body: { code: 7 } });
  });
});

describe('redaction', () => {
  it('replaces every occurrence of every secret, in text and inside JSON values', () => {
    const redact = createRedactor(['k3y', undefined, '', 't0k']);
    expect(redact('k3y and t0k and k3y')).toBe('[redacted] and [redacted] and [redacted]');
    expect(redactDeep({ a: ['k3y'], k3y: 1, n: 2 }, redact)).toEqual({
      a: ['[redacted]'],
      '[redacted]': 1,
      n: 2,
    });
  });
});
