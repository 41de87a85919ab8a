// Slack's mrkdwn, parsed into a small tree the page turns into DOM nodes (never into HTML text), so
// nothing in a message can become markup: a machine named `<img src=x onerror=alert(1)>` arrives
// escaped (&lt;img…&gt;) and shows as those characters. Pure functions, shared by the page and the
// unit tests.
//
// Nodes: { type: 'text', text } | { type: 'bold' | 'italic' | 'strike', children } | { type: 'code', text }
//   | { type: 'pre', text } | { type: 'quote', children } | { type: 'br' } | { type: 'link', url, label }
//   | { type: 'user', id, label } | { type: 'channel', id, label } | { type: 'special', name }
//   | { type: 'date', unix, format, link, fallback }

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };
const MARKS = { '*': 'bold', _: 'italic', '~': 'strike' };
const SAFE_URL = /^(https?:\/\/|mailto:)/i;

/** `&amp;`, `&lt;` and `&gt;` back to the characters they stand for (Slack escapes only these three). */
export function decodeEntities(text) {
  return text.replace(/&(amp|lt|gt);/g, (entity) => ENTITIES[entity]);
}

/** Whether a link target may become a clickable link (no javascript:, data: or relative URLs). */
export function isSafeUrl(url) {
  return SAFE_URL.test(url);
}

export function parseMrkdwn(text) {
  const nodes = [];
  const parts = String(text).split(/```([\s\S]*?)```/);
  parts.forEach((part, index) => {
    if (index % 2 === 1) {
      nodes.push({ type: 'pre', text: decodeEntities(part.replace(/^\n/, '').replace(/\n$/, '')) });
      return;
    }
    // A code block is a block of its own: the line breaks around it are not extra blank lines.
    const before = index > 0 ? part.replace(/^\n/, '') : part;
    nodes.push(...parseLines(index < parts.length - 1 ? before.replace(/\n$/, '') : before));
  });
  return nodes;
}

/** Lines starting with `>` form a quote; the other lines are inline text separated by line breaks. */
function parseLines(text) {
  if (text === '') return [];
  const nodes = [];
  let quoted = [];
  let afterText = false;
  const flushQuote = () => {
    if (quoted.length === 0) return;
    nodes.push({ type: 'quote', children: parseInline(quoted.join('\n')) });
    quoted = [];
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('>')) {
      quoted.push(line.slice(1).replace(/^ /, ''));
      afterText = false;
      continue;
    }
    flushQuote();
    if (afterText) nodes.push({ type: 'br' });
    nodes.push(...parseInline(line));
    afterText = true;
  }
  flushQuote();
  return nodes;
}

const isWordChar = (char) => char !== undefined && /[\p{L}\p{N}]/u.test(char);
const isSpace = (char) => char === undefined || /\s/.test(char);

/** Where the span (`<...>` token or code) starting at i ends, or -1 when i starts none. */
function atomicEnd(text, i) {
  if (text[i] === '<') {
    const end = text.indexOf('>', i + 1);
    const newline = text.indexOf('\n', i + 1);
    return end > i + 1 && (newline === -1 || newline > end) ? end : -1;
  }
  if (text[i] === '`') {
    const end = text.indexOf('`', i + 1);
    const newline = text.indexOf('\n', i + 1);
    return end > i + 1 && (newline === -1 || newline > end) ? end : -1;
  }
  return -1;
}

/** The closing mark for an opening one at i, following Slack's rule that marks hug words. */
function closingMark(text, i) {
  const mark = text[i];
  for (let j = i + 2; j < text.length; j += 1) {
    const char = text[j];
    if (char === '\n') return -1;
    const skip = atomicEnd(text, j);
    if (skip > 0) {
      j = skip;
      continue;
    }
    if (char === mark && !isSpace(text[j - 1]) && !isWordChar(text[j + 1])) return j;
  }
  return -1;
}

function parseInline(text) {
  const nodes = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '') nodes.push({ type: 'text', text: decodeEntities(buffer) });
    buffer = '';
  };
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '\n') {
      flush();
      nodes.push({ type: 'br' });
      i += 1;
      continue;
    }
    const end = atomicEnd(text, i);
    if (end > 0) {
      flush();
      const inner = text.slice(i + 1, end);
      nodes.push(char === '<' ? parseToken(inner) : { type: 'code', text: decodeEntities(inner) });
      i = end + 1;
      continue;
    }
    if (MARKS[char] && !isWordChar(text[i - 1]) && !isSpace(text[i + 1])) {
      const close = closingMark(text, i);
      if (close > 0) {
        flush();
        nodes.push({ type: MARKS[char], children: parseInline(text.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }
    buffer += char;
    i += 1;
  }
  flush();
  return nodes;
}

/** The inside of `<...>`: a mention, a channel, a special mention, a date or a link. */
function parseToken(inner) {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decodeEntities(inner.slice(bar + 1));
  if (target.startsWith('@')) return { type: 'user', id: target.slice(1), label };
  if (target.startsWith('#')) return { type: 'channel', id: target.slice(1), label };
  if (target.startsWith('!date^')) {
    const [, unix, format, link] = target.split('^');
    return {
      type: 'date',
      unix: Number(unix),
      format: decodeEntities(format ?? ''),
      link: link === undefined ? undefined : decodeEntities(link),
      fallback: label ?? '',
    };
  }
  if (target.startsWith('!')) {
    const name = target.slice(1).split('^')[0];
    return { type: 'special', name: label ?? `@${name}` };
  }
  const url = decodeEntities(target);
  return { type: 'link', url, label: label ?? url };
}

const ORDINAL = (day) => {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${{ 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th'}`;
};

/** The calendar day of an instant in a time zone, as numbers. */
function dayIn(ms, timeZone) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(ms);
  const get = (type) => Number(parts.find((part) => part.type === type)?.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

const dayNumber = ({ year, month, day }) => Date.UTC(year, month - 1, day) / 86_400_000;

/**
 * Renders a `<!date^…>` format string for the reader: {date_num}, {date}, {date_short}, {date_long},
 * the `_pretty` forms (Today / Yesterday / Tomorrow), {time}, {time_secs} and {ago}. The time zone
 * and locale are the browser's unless given; `now` decides what "today" is.
 */
export function formatSlackDate(unix, format, { timeZone, locale, now = Date.now() } = {}) {
  const ms = unix * 1000;
  if (!Number.isFinite(ms)) return undefined;
  const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const english = (options) => new Intl.DateTimeFormat('en-US', { timeZone: zone, ...options }).format(ms);
  const date = dayIn(ms, zone);
  const month = english({ month: 'long' });
  const shortMonth = english({ month: 'short' });
  const weekday = english({ weekday: 'long' });
  const plain = {
    date_num: `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`,
    date: `${month} ${ORDINAL(date.day)}, ${date.year}`,
    date_short: `${shortMonth} ${date.day}, ${date.year}`,
    date_long: `${weekday}, ${month} ${ORDINAL(date.day)}, ${date.year}`,
  };
  const offset = dayNumber(date) - dayNumber(dayIn(now, zone));
  const relative = { 0: 'Today', [-1]: 'Yesterday', 1: 'Tomorrow' }[offset];
  const time = (seconds) =>
    new Intl.DateTimeFormat(locale, {
      timeZone: zone,
      hour: 'numeric',
      minute: '2-digit',
      ...(seconds ? { second: '2-digit' } : {}),
    }).format(ms);
  const tokens = {
    ...plain,
    date_pretty: relative ?? plain.date,
    date_short_pretty: relative ?? plain.date_short,
    date_long_pretty: relative ?? plain.date_long,
    time: time(false),
    time_secs: time(true),
    ago: ago(ms, now, locale),
  };
  return format.replace(/\{(\w+)\}/g, (whole, name) => tokens[name] ?? whole);
}

function ago(ms, now, locale) {
  const seconds = Math.round((ms - now) / 1000);
  const units = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const format = new Intl.RelativeTimeFormat(locale ?? 'en', { numeric: 'auto' });
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}
