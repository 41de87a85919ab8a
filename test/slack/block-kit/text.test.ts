import { describe, expect, it } from 'vitest';
import {
  escapeMrkdwn,
  mrkdwn,
  option,
  plainText,
  slackDate,
  truncate,
  truncateMrkdwn,
} from '../../../src/slack/block-kit/text.js';

describe('escapeMrkdwn', () => {
  it('turns mentions, links and ampersands into inert text', () => {
    expect(escapeMrkdwn('<!channel> & <@U1>')).toBe('&lt;!channel&gt; &amp; &lt;@U1&gt;');
  });

  it('escapes an already escaped string again, so "&lt;" typed by a user shows as typed', () => {
    expect(escapeMrkdwn('&lt;')).toBe('&amp;lt;');
  });
});

describe('truncate', () => {
  it('leaves short text alone and ends long text with an ellipsis within the limit', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdefghijkl', 10)).toBe('abcdefghi…');
    expect(truncate('abcdefghijkl', 10)).toHaveLength(10);
  });

  it('never cuts an emoji in half', () => {
    const cut = truncate(`abcdefgh🟢🟢🟢`, 10);
    expect(cut).toBe('abcdefgh…');
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('truncateMrkdwn', () => {
  it('drops a half-cut escape or mention instead of leaving garbage', () => {
    expect(truncateMrkdwn(`${'a'.repeat(8)}&amp;tail`, 12)).toBe('aaaaaaaa…');
    expect(truncateMrkdwn('hello <@U12345678> there', 12)).toBe('hello …');
  });
});

describe('text objects', () => {
  it('replace empty text with a dash, which Slack accepts', () => {
    expect(plainText('').text).toBe('—');
    expect(mrkdwn('  ').text).toBe('—');
  });

  it('refuse an option value Slack would reject rather than cut an id', () => {
    expect(() => option('Template', 't'.repeat(151))).toThrow(/151 characters; Slack allows 150/);
    expect(option('o'.repeat(100), 'v').text.text).toHaveLength(75);
  });
});

describe('slackDate', () => {
  it('formats in the reader time zone and falls back to UTC', () => {
    expect(slackDate(Date.UTC(2024, 0, 2, 3, 4, 5), '{date_short_pretty} at {time}')).toBe(
      '<!date^1704164645^{date_short_pretty} at {time}|2024-01-02 03:04 UTC>',
    );
  });
});
