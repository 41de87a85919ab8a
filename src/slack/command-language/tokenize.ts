// Splits the text of a slash command into tokens the way a person expects from a shell, with the
// quirks of Slack's composer handled here once:
// - Slack HTML-escapes `&`, `<` and `>` typed by the user, so a raw `<` always starts Slack markup:
//   user mentions `<@U123|name>`, channels `<#C123|name>`, links and e-mails `<mailto:a@b.c|a@b.c>`.
//   Markup is one piece of a token even when its label holds spaces; links become what was typed.
// - Quotes: "..." and '...', and the smart quotes Slack and phones substitute (“ ” ‘ ’). A quote opens
//   only at the start of a token or right after its first `=` (`name="My Machine"`), so apostrophes
//   inside words (`Bob's`) stay literal. Inside quotes a backslash escapes a quote or a backslash.
// - Any Unicode space separates tokens (Slack sometimes sends non-breaking spaces); zero-width
//   characters picked up by copy and paste are dropped.

import { echo } from './echo.js';

export interface Token {
  /** The token's text with quotes removed, escapes applied, entities decoded and links unwrapped. */
  text: string;
  /** Whether any part of the token was quoted (a quoted token is never an option). */
  quoted: boolean;
  /** Index in `text` of the first `=` typed outside quotes and markup, or -1 when there is none. */
  equalsAt: number;
  /** The Slack user id when the whole token is one user mention (`<@U123|name>` or `<@U123>`). */
  slackUserId: string | null;
  /** The channel id when the whole token is one channel mention (`<#C123|name>`); absent otherwise. */
  slackChannelId?: string;
  /** The Slack user id when a key=value token's value is one user mention (`owner=<@U123|sam>`). */
  valueSlackUserId?: string;
}

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; error: string };

const DOUBLE_QUOTES = new Set(['"', '\u201C', '\u201D', '\u201E', '\u201F']);
const SINGLE_QUOTES = new Set(["'", '\u2018', '\u2019', '\u201A', '\u201B']);
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;

/** Longest markup `<...>` we look for; Slack's own links stay far below this. */
const MAX_MARKUP_LENGTH = 3000;

interface Markup {
  text: string;
  slackUserId: string | null;
  slackChannelId?: string;
}

/** Reads Slack markup (the text between `<` and `>`) into what the user typed. */
function readMarkup(inner: string): Markup {
  const pipe = inner.indexOf('|');
  const target = pipe === -1 ? inner : inner.slice(0, pipe);
  const label = pipe === -1 ? null : inner.slice(pipe + 1);
  if (target.startsWith('@')) {
    const userId = target.slice(1);
    const isUser = SLACK_USER_ID.test(userId);
    return { text: `@${label ?? userId}`, slackUserId: isUser ? userId : null };
  }
  if (target.startsWith('#')) {
    return { text: `#${label ?? target.slice(1)}`, slackUserId: null, slackChannelId: target.slice(1) };
  }
  if (target.startsWith('!')) return { text: label ?? `@${target.slice(1)}`, slackUserId: null };
  if (label !== null) return { text: label, slackUserId: null };
  return { text: target.startsWith('mailto:') ? target.slice('mailto:'.length) : target, slackUserId: null };
}

function quoteFamily(ch: string): 'double' | 'single' | null {
  if (DOUBLE_QUOTES.has(ch)) return 'double';
  if (SINGLE_QUOTES.has(ch)) return 'single';
  return null;
}

function describeQuote(family: 'double' | 'single'): string {
  return family === 'double' ? 'double quote (")' : "single quote (')";
}

/** Splits `input` into tokens; the only failure is a quote that is never closed. Never throws. */
export function tokenize(input: string): TokenizeResult {
  const text = input.replace(ZERO_WIDTH, '');
  const tokens: Token[] = [];
  let current: Token | null = null;
  // A token that is exactly one mention and nothing else keeps the mention's user or channel id.
  let mentionOnly = false;
  // Likewise a key=value token whose value is exactly one user mention.
  let valueMentionOnly = false;

  const finish = () => {
    if (current !== null) {
      if (!mentionOnly) {
        current.slackUserId = null;
        delete current.slackChannelId;
      }
      if (!valueMentionOnly) delete current.valueSlackUserId;
      tokens.push(current);
    }
    current = null;
    mentionOnly = false;
    valueMentionOnly = false;
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (/\s/u.test(ch)) {
      finish();
      i++;
      continue;
    }
    if (current === null) {
      current = { text: '', quoted: false, equalsAt: -1, slackUserId: null };
      mentionOnly = false;
      valueMentionOnly = false;
    }
    const token: Token = current;
    const family = quoteFamily(ch);
    const atQuoteOpening =
      token.text === '' || (token.equalsAt !== -1 && token.equalsAt === token.text.length - 1);
    if (family !== null && atQuoteOpening && !token.quoted) {
      const read = readQuoted(text, i + 1, family);
      if (!read.ok) {
        const where = token.text === '' ? 'before' : `after ${echo(token.text)} and before`;
        return {
          ok: false,
          error: `Unterminated quote: the ${describeQuote(family)} ${where} ${echo(text.slice(i + 1))} is never closed. Close it, or put a backslash before a quote that belongs to the value.`,
        };
      }
      token.text += read.text;
      token.quoted = true;
      mentionOnly = false;
      valueMentionOnly = false;
      i = read.next;
      continue;
    }
    if (ch === '<') {
      const close = text.indexOf('>', i + 1);
      if (close !== -1 && close - i <= MAX_MARKUP_LENGTH) {
        const markup = readMarkup(text.slice(i + 1, close));
        mentionOnly =
          token.text === '' && (markup.slackUserId !== null || markup.slackChannelId !== undefined);
        valueMentionOnly =
          token.equalsAt !== -1 && token.equalsAt === token.text.length - 1 && markup.slackUserId !== null;
        if (valueMentionOnly && markup.slackUserId !== null) token.valueSlackUserId = markup.slackUserId;
        token.slackUserId = markup.slackUserId;
        if (markup.slackChannelId !== undefined) token.slackChannelId = markup.slackChannelId;
        token.text += markup.text;
        i = close + 1;
        continue;
      }
    }
    mentionOnly = false;
    valueMentionOnly = false;
    if (ch === '&') {
      const entity = Object.keys(ENTITIES).find((name) => text.startsWith(name, i));
      if (entity !== undefined) {
        token.text += ENTITIES[entity];
        i += entity.length;
        continue;
      }
    }
    if (ch === '=' && token.equalsAt === -1) token.equalsAt = token.text.length;
    token.text += ch;
    i++;
  }
  finish();
  return { ok: true, tokens };
}

type QuotedRead = { ok: true; text: string; next: number } | { ok: false };

/** Reads a quoted section starting after its opening quote, up to the closing quote of the same family. */
function readQuoted(text: string, start: number, family: 'double' | 'single'): QuotedRead {
  let value = '';
  let i = start;
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (ch === '\\') {
      const next = text[i + 1];
      if (next !== undefined && (next === '\\' || quoteFamily(next) !== null)) {
        value += next;
        i += 2;
        continue;
      }
    }
    if (quoteFamily(ch) === family) return { ok: true, text: value, next: i + 1 };
    if (ch === '<') {
      const close = text.indexOf('>', i + 1);
      if (close !== -1 && close - i <= MAX_MARKUP_LENGTH) {
        value += readMarkup(text.slice(i + 1, close)).text;
        i = close + 1;
        continue;
      }
    }
    if (ch === '&') {
      const entity = Object.keys(ENTITIES).find((name) => text.startsWith(name, i));
      if (entity !== undefined) {
        value += ENTITIES[entity];
        i += entity.length;
        continue;
      }
    }
    value += ch;
    i++;
  }
  return { ok: false };
}
