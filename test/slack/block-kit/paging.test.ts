import { describe, expect, it } from 'vitest';
import { decodePageValue, encodePageValue, pageSlice } from '../../../src/slack/block-kit/paging.js';

describe('page values', () => {
  it('decode what encode wrote', () => {
    const value = {
      kind: 'machines' as const,
      filters: { state: 'ready', region: 'Europe (AMS1)' },
      page: 3,
    };
    const encoded = encodePageValue(value);
    expect(encoded).toBe('{"kind":"machines","filters":{"state":"ready","region":"Europe (AMS1)"},"page":3}');
    expect(decodePageValue(encoded)).toEqual(value);
  });

  it.each([
    ['not JSON', 'page=2', /not JSON/],
    ['an unknown kind', '{"kind":"secrets","filters":{},"page":1}', /kind/],
    ['a page below 1', '{"kind":"machines","filters":{},"page":0}', /page/],
    ['a fractional page', '{"kind":"machines","filters":{},"page":1.5}', /page/],
    ['a non-string filter', '{"kind":"users","filters":{"email":{"$ne":""}},"page":1}', /filters/],
    [
      'a filter name that is no API parameter',
      '{"kind":"users","filters":{"__proto__x":"a"},"page":1}',
      /filters\.__proto__x/,
    ],
    ['an extra key', '{"kind":"users","filters":{},"page":1,"apiKey":"x"}', /apiKey/],
  ])('reject %s, naming why for the log', (_, raw, detail) => {
    expect(() => decodePageValue(raw)).toThrow(
      expect.objectContaining({ part: 'Page button value', detail: expect.stringMatching(detail) }),
    );
  });

  it('refuse to encode a value longer than a button value may be', () => {
    expect(() => encodePageValue({ kind: 'machines', filters: { name: 'x'.repeat(2000) }, page: 1 })).toThrow(
      /Slack allows 2000/,
    );
  });
});

describe('pageSlice', () => {
  it('moves a page beyond the end back to the last page', () => {
    expect(pageSlice(25, 9, 10)).toEqual({ page: 3, pageCount: 3, start: 20, end: 25 });
    expect(pageSlice(0, 1, 10)).toEqual({ page: 1, pageCount: 1, start: 0, end: 0 });
    expect(pageSlice(5, -2, 10)).toEqual({ page: 1, pageCount: 1, start: 0, end: 5 });
  });
});
