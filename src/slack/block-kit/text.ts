// Text helpers shared by every builder: escaping of user-controlled strings, truncation to Block Kit
// limits, Slack date tokens and the text-object constructors. Builders never put a raw string from the
// API or from a user into mrkdwn without escapeMrkdwn: a machine named "<!channel>" must stay inert.
import type { KnownBlock, MrkdwnElement, PlainTextElement, PlainTextOption } from '@slack/types';

/** The Block Kit limits the builders size their output to (https://api.slack.com/reference/block-kit). */
export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  sectionField: 2000,
  sectionFields: 10,
  headerText: 150,
  contextElements: 10,
  buttonText: 75,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  optionText: 75,
  optionValue: 150,
  selectOptions: 100,
  viewTitle: 24,
  privateMetadata: 3000,
  inputLabel: 2000,
  placeholder: 150,
  plainTextInput: 3000,
  blockId: 255,
  /** Our cap for a message's notification text (Slack truncates past 40000; nobody reads that far). */
  fallbackText: 3000,
} as const;

/** A message as chat.postMessage/respond take it: blocks plus the notification fallback. */
export interface SlackMessage {
  blocks: KnownBlock[];
  text: string;
}

/** A message whose fallback text (escaped mrkdwn) is cut to LIMITS.fallbackText. */
export function message(blocks: KnownBlock[], text: string): SlackMessage {
  return { blocks, text: truncateMrkdwn(text, LIMITS.fallbackText) };
}

const ELLIPSIS = '…';

/** Escapes the three characters Slack's mrkdwn treats as control characters. */
export function escapeMrkdwn(text: string): string {
  // Most text has nothing to escape: one scan instead of three replaces (a list escapes every field of
  // every machine, and this was the list message's busiest function).
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const NEEDS_ESCAPE = /[&<>]/;

/** Characters Slack's mrkdwn turns into bold, italic, strike or code; it has no way to escape them. */
const FORMATTING = /[*_~`]/;

/**
 * A name a person chose (a machine, script or drive) in mrkdwn, shown exactly as typed: bold as
 * usual, but a name holding a formatting character (`*bold*_x_`) goes in a code span, the one place
 * Slack leaves those characters alone. A backtick, which would end the span, becomes `ˋ`.
 */
export function nameMrkdwn(name: string, style: 'bold' | 'plain' = 'bold'): string {
  const escaped = escapeMrkdwn(name);
  if (FORMATTING.test(name)) return `\`${escaped.replace(/`/g, 'ˋ')}\``;
  return style === 'bold' ? `*${escaped}*` : escaped;
}

/** Shortens plain text to at most `max` characters, ending with an ellipsis; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - ELLIPSIS.length;
  if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1;
  return text.slice(0, Math.max(0, cut)) + ELLIPSIS;
}

/**
 * Shortens mrkdwn like truncate, and also never leaves half an escape (`&am`) or half a
 * `<...>` token (a mention, link or date) at the cut, which Slack would render as garbage.
 */
export function truncateMrkdwn(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = truncate(text, max).slice(0, -ELLIPSIS.length);
  const openToken = head.lastIndexOf('<');
  if (openToken > head.lastIndexOf('>')) head = head.slice(0, openToken);
  head = head.replace(/&[a-z]*$/, '');
  return head + ELLIPSIS;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function plainText(text: string, max: number = LIMITS.sectionText): PlainTextElement {
  return { type: 'plain_text', text: truncate(nonEmpty(text), max), emoji: true };
}

/** `<@U1>`: a Slack person as a live mention in mrkdwn. */
export function mention(slackUserId: string): string {
  return `<@${escapeMrkdwn(slackUserId)}>`;
}

/** The user id of a whole value that is a mention as Slack sends it (`<@U123>`, `<@U123|name>`). */
export function mentionedUserId(value: string): string | undefined {
  return /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/.exec(value)?.[1];
}

/** A mrkdwn object; `text` must already be escaped where it holds user-controlled strings. */
export function mrkdwn(text: string, max: number = LIMITS.sectionText): MrkdwnElement {
  return { type: 'mrkdwn', text: truncateMrkdwn(nonEmpty(text), max) };
}

/** Slack rejects empty text objects; a visible dash keeps a block valid when data is missing. */
function nonEmpty(text: string): string {
  return text.trim() === '' ? '—' : text;
}

/** An option of a select, radio group or checkbox group, sized to the option limits. */
export function option(text: string, value: string, description?: string): PlainTextOption {
  if (value.length > LIMITS.optionValue) {
    throw new RangeError(`Option value is ${value.length} characters; Slack allows ${LIMITS.optionValue}`);
  }
  const built: PlainTextOption = { text: plainText(text, LIMITS.optionText), value };
  if (description) built.description = plainText(description, LIMITS.optionText);
  return built;
}

/**
 * A date that each reader sees in their own time zone: `<!date^unix^format|fallback>`.
 * `at` is epoch milliseconds; the fallback (shown by clients that cannot format) is UTC.
 */
export function slackDate(at: number, format: string, fallback: string = isoMinutes(at)): string {
  return `<!date^${Math.floor(at / 1000)}^${format}|${escapeMrkdwn(fallback)}>`;
}

/** `2024-05-01 18:30 UTC`: a compact, unambiguous fallback for slackDate. */
export function isoMinutes(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `1 machine`, `3 machines`. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
