// The page's mrkdwn parser is plain JavaScript served to the browser as is; these tests load the same
// file. What the parser returns becomes DOM text nodes, so "renders as text" means: the characters
// end up in a text node, and no node asks for markup.
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeMrkdwn } from '../../../../src/slack/block-kit/text.js';

type Node = {
  type: string;
  text?: string;
  children?: Node[];
  url?: string;
  label?: string;
  id?: string;
  name?: string;
  unix?: number;
  format?: string;
  fallback?: string;
};
interface MrkdwnModule {
  parseMrkdwn(text: string): Node[];
  isSafeUrl(url: string): boolean;
  formatSlackDate(
    unix: number,
    format: string,
    options?: { timeZone?: string; locale?: string; now?: number },
  ): string | undefined;
}

let mrkdwn: MrkdwnModule;
beforeAll(async () => {
  const file = new URL('../../../../tools/sandbox/page/mrkdwn.js', import.meta.url).href;
  mrkdwn = (await import(file)) as MrkdwnModule;
});

/** All text the nodes would show, in order. */
function textOf(nodes: Node[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'br') return '\n';
      if (node.children) return textOf(node.children);
      return node.text ?? node.label ?? node.name ?? '';
    })
    .join('');
}

function types(nodes: Node[]): string[] {
  return nodes.flatMap((node) => [node.type, ...(node.children ? types(node.children) : [])]);
}

describe('mrkdwn escaping', () => {
  it('shows a machine named like an HTML tag as those characters, in a text node', () => {
    const name = '<img src=x onerror=alert(1)>';
    const nodes = mrkdwn.parseMrkdwn(`*${escapeMrkdwn(name)}* is ready`);
    expect(textOf(nodes)).toBe(`${name} is ready`);
    expect(types(nodes)).toEqual(['bold', 'text', 'text']);
  });

  it('decodes only the three entities Slack escapes, so other entities stay literal', () => {
    const nodes = mrkdwn.parseMrkdwn('a &amp; b &lt;c&gt; &quot;d&quot; &#60;');
    expect(textOf(nodes)).toBe('a & b <c> &quot;d&quot; &#60;');
  });

  it('treats an unescaped tag as a Slack link token whose target is not a URL, shown as plain text', () => {
    const [node] = mrkdwn.parseMrkdwn('<img src=x onerror=alert(1)>');
    expect(node).toMatchObject({ type: 'link', url: 'img src=x onerror=alert(1)' });
    expect(mrkdwn.isSafeUrl(node?.url ?? '')).toBe(false);
  });

  it('refuses javascript: and data: link targets and accepts http(s) and mailto', () => {
    expect(mrkdwn.isSafeUrl('javascript:alert(1)')).toBe(false);
    expect(mrkdwn.isSafeUrl('JavaScript:alert(1)')).toBe(false);
    expect(mrkdwn.isSafeUrl('data:text/html,<b>')).toBe(false);
    expect(mrkdwn.isSafeUrl('//evil.example')).toBe(false);
    expect(mrkdwn.isSafeUrl('https://console.paperspace.com/')).toBe(true);
    expect(mrkdwn.isSafeUrl('mailto:ada@example.com')).toBe(true);
  });

  it('keeps code spans and blocks literal: no formatting and no tokens inside', () => {
    const nodes = mrkdwn.parseMrkdwn('run `*not bold* &lt;x&gt;` then\n```\n<@U1> _x_\n```');
    expect(nodes[1]).toEqual({ type: 'code', text: '*not bold* <x>' });
    expect(nodes.at(-1)).toEqual({ type: 'pre', text: '<@U1> _x_' });
  });
});

describe('mrkdwn formatting', () => {
  it('reads bold, italic and strike only where the marks hug words, as Slack does', () => {
    expect(types(mrkdwn.parseMrkdwn('*b* _i_ ~s~'))).toEqual([
      'bold',
      'text',
      'text',
      'italic',
      'text',
      'text',
      'strike',
      'text',
    ]);
    expect(types(mrkdwn.parseMrkdwn('team_build_2 and 2*3*4 and * spaced *'))).toEqual(['text']);
  });

  it('nests formatting and keeps tokens inside it', () => {
    const [bold] = mrkdwn.parseMrkdwn('*Restarting… requested by <@U0ADA>*');
    expect(bold?.type).toBe('bold');
    expect(bold?.children?.at(-1)).toEqual({ type: 'user', id: 'U0ADA', label: undefined });
  });

  it('reads links with and without a label, decoding their escapes', () => {
    expect(mrkdwn.parseMrkdwn('<https://a.example/?x=1&amp;y=2|the docs>')).toEqual([
      { type: 'link', url: 'https://a.example/?x=1&y=2', label: 'the docs' },
    ]);
    expect(mrkdwn.parseMrkdwn('<https://a.example>')).toEqual([
      { type: 'link', url: 'https://a.example', label: 'https://a.example' },
    ]);
  });

  it('reads user, channel and special mentions', () => {
    expect(mrkdwn.parseMrkdwn('<@U0MAYA|maya> <#C0GENERAL|general> <!here>')).toEqual([
      { type: 'user', id: 'U0MAYA', label: 'maya' },
      { type: 'text', text: ' ' },
      { type: 'channel', id: 'C0GENERAL', label: 'general' },
      { type: 'text', text: ' ' },
      { type: 'special', name: '@here' },
    ]);
  });

  it('turns lines starting with > into a quote and other newlines into line breaks', () => {
    const nodes = mrkdwn.parseMrkdwn('one\ntwo\n> quoted\n> more\nthree');
    expect(types(nodes)).toEqual(['text', 'br', 'text', 'quote', 'text', 'br', 'text', 'text']);
    expect(textOf(nodes)).toBe('one\ntwoquoted\nmorethree');
  });
});

describe('date tokens', () => {
  const at = Date.UTC(2024, 4, 1, 18, 30) / 1000;

  it('reads the timestamp, the format and the fallback of a date token', () => {
    expect(mrkdwn.parseMrkdwn(`<!date^${at}^{date_short_pretty} at {time}|2024-05-01 18:30 UTC>`)).toEqual([
      {
        type: 'date',
        unix: at,
        format: '{date_short_pretty} at {time}',
        link: undefined,
        fallback: '2024-05-01 18:30 UTC',
      },
    ]);
  });

  it('formats dates in the reader’s time zone', () => {
    const options = { locale: 'en-US', now: Date.UTC(2024, 6, 1) };
    expect(mrkdwn.formatSlackDate(at, '{date_num} {time}', { ...options, timeZone: 'UTC' })).toBe(
      '2024-05-01 6:30 PM',
    );
    expect(mrkdwn.formatSlackDate(at, '{date_num} {time}', { ...options, timeZone: 'Asia/Tokyo' })).toBe(
      '2024-05-02 3:30 AM',
    );
    expect(
      mrkdwn.formatSlackDate(at, '{date} / {date_short} / {date_long}', { ...options, timeZone: 'UTC' }),
    ).toBe('May 1st, 2024 / May 1, 2024 / Wednesday, May 1st, 2024');
  });

  it('says Today, Yesterday and Tomorrow in the pretty forms, by the reader’s calendar', () => {
    const format = (now: number, timeZone: string) =>
      mrkdwn.formatSlackDate(at, '{date_short_pretty}', { locale: 'en-US', timeZone, now });
    expect(format(at * 1000 + 3_600_000, 'UTC')).toBe('Today');
    expect(format(at * 1000 + 86_400_000, 'UTC')).toBe('Yesterday');
    expect(format(at * 1000 - 86_400_000, 'UTC')).toBe('Tomorrow');
    // 18:30 UTC is already the next day in Tokyo, where "now" (19:30 UTC) is that same day.
    expect(format(at * 1000 + 3_600_000, 'Asia/Tokyo')).toBe('Today');
    expect(format(at * 1000 + 7 * 86_400_000, 'UTC')).toBe('May 1, 2024');
  });

  it('leaves unknown format tokens as written, and gives nothing for a broken timestamp', () => {
    expect(mrkdwn.formatSlackDate(at, '{nonsense} {date_num}', { timeZone: 'UTC' })).toBe(
      '{nonsense} 2024-05-01',
    );
    expect(mrkdwn.formatSlackDate(Number.NaN, '{date_num}', { timeZone: 'UTC' })).toBeUndefined();
  });

  it('says how long ago', () => {
    expect(
      mrkdwn.formatSlackDate(at, '{ago}', { locale: 'en', timeZone: 'UTC', now: at * 1000 + 3 * 60_000 }),
    ).toBe('3 minutes ago');
  });
});
