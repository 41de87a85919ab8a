import { describe, expect, it } from 'vitest';
import { type Token, tokenize } from '../../../src/slack/command-language/tokenize.js';

function texts(input: string): string[] {
  const result = tokenize(input);
  if (!result.ok) throw new Error(result.error);
  return result.tokens.map((token) => token.text);
}

function tokens(input: string): Token[] {
  const result = tokenize(input);
  if (!result.ok) throw new Error(result.error);
  return result.tokens;
}

describe('tokenize', () => {
  it('splits on any run of whitespace, including non-breaking spaces and newlines', () => {
    expect(texts('  start\u00A0gpu-1 \n --no-wait\t')).toEqual(['start', 'gpu-1', '--no-wait']);
  });

  it('keeps a double- or single-quoted value with spaces as one token', () => {
    expect(texts(`show "My Machine" 'Other one'`)).toEqual(['show', 'My Machine', 'Other one']);
  });

  it('reads a quoted value after key=', () => {
    const [token] = tokens('name="My Machine"');
    expect(token).toEqual({ text: 'name=My Machine', quoted: true, equalsAt: 4, slackUserId: null });
  });

  it('treats the smart quotes Slack and phones substitute as quotes', () => {
    expect(texts('show “My Machine” ‘Other one’ name=“x y”')).toEqual([
      'show',
      'My Machine',
      'Other one',
      'name=x y',
    ]);
  });

  it('applies backslash escapes inside quotes and keeps other backslashes', () => {
    expect(texts(String.raw`"a \"b\" c" 'it\'s' "C:\Users" "back\\slash"`)).toEqual([
      'a "b" c',
      "it's",
      String.raw`C:\Users`,
      String.raw`back\slash`,
    ]);
  });

  it('leaves apostrophes inside words alone', () => {
    expect(texts("show Bob's name=Ann’s")).toEqual(['show', "Bob's", 'name=Ann’s']);
  });

  it('does not count an = inside quotes as a key=value split', () => {
    const [token] = tokens('"a=b"');
    expect(token?.equalsAt).toBe(-1);
  });

  it('reports an unterminated quote and where it starts', () => {
    const result = tokenize('show "My Machine');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain('Unterminated quote');
      expect(result.error).toContain('"My Machine"');
    }
  });

  it('reads Slack user mentions with and without a label, keeping the user id', () => {
    const [labelled, bare] = tokens('<@U0123ABCD|bob> <@W999ZZZ>');
    expect(labelled).toMatchObject({ text: '@bob', slackUserId: 'U0123ABCD' });
    expect(bare).toMatchObject({ text: '@W999ZZZ', slackUserId: 'W999ZZZ' });
  });

  it('keeps a mention label with spaces in one token', () => {
    expect(texts('<@U0123ABCD|Bob Smith> x')).toEqual(['@Bob Smith', 'x']);
  });

  it('only marks a token as a mention when it is nothing else', () => {
    const [token] = tokens('x<@U0123ABCD>');
    expect(token?.slackUserId).toBeNull();
  });

  it('turns Slack links and e-mail links back into what the user typed', () => {
    expect(
      texts(
        'email=<mailto:a@b.com|a@b.com> <https://example.com> <https://example.com/x|example.com/x> <#C123|ops>',
      ),
    ).toEqual(['email=a@b.com', 'https://example.com', 'example.com/x', '#ops']);
  });

  it('decodes the HTML entities Slack uses for &, < and >', () => {
    expect(texts('name=&lt;a&amp;b&gt; "&lt;x&gt;"')).toEqual(['name=<a&b>', '<x>']);
  });

  it('drops zero-width characters picked up by copy and paste', () => {
    expect(texts('sh\u200Bow gpu\uFEFF-1')).toEqual(['show', 'gpu-1']);
  });

  it('answers no tokens for blank text', () => {
    expect(texts(' \t\n')).toEqual([]);
  });
});
