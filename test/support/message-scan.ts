// What no message of the bot may show a person, checked over everything a test made the bot say (the
// fake Slack's record: posts, ephemerals, updates, views, unfurls and response_url answers): an HTTP
// status code, and a mention that Slack would print as raw text (inside a code span, in plain text, or
// escaped) instead of drawing it as a name.
import type { FakeSlack } from './fake-slack.js';

const SAID_BY_METHODS = new Set([
  'chat.postMessage',
  'chat.postEphemeral',
  'chat.update',
  'chat.unfurl',
  'views.open',
  'views.push',
  'views.update',
  'views.publish',
]);

interface Rule {
  name: string;
  /** The offending excerpt of one string, or undefined. */
  find(text: string, plain: boolean): string | undefined;
}

const excerpt = (text: string, index: number) => text.slice(Math.max(0, index - 40), index + 60);

const RULES: Rule[] = [
  {
    name: 'an HTTP status code',
    find(text) {
      const found = /\((?:[1-5]\d\d)\)|\bHTTP [1-5]\d\d\b/.exec(text);
      return found === null ? undefined : excerpt(text, found.index);
    },
  },
  {
    name: 'a mention shown as raw text',
    find(text, plain) {
      const mention = /<@[UW][A-Z0-9]+/;
      if (plain) {
        const found = mention.exec(text);
        return found === null ? undefined : excerpt(text, found.index);
      }
      const escaped = /&lt;@[UW][A-Z0-9]/.exec(text);
      if (escaped !== null) return excerpt(text, escaped.index);
      // Inside a code span (every other piece between backticks) Slack prints the mention as typed.
      const inCode = text.split('`').find((piece, index) => index % 2 === 1 && mention.test(piece));
      return inCode === undefined ? undefined : `\`${inCode}\``;
    },
  },
];

/** Every string a person may read in `value`: `text` fields, with whether Slack shows it as plain text. */
function readableStrings(value: unknown, plain = false, out: Array<{ text: string; plain: boolean }> = []) {
  if (Array.isArray(value)) {
    for (const item of value) readableStrings(item, plain, out);
    return out;
  }
  if (value === null || typeof value !== 'object') return out;
  const node = value as Record<string, unknown>;
  const isPlain = node.type === 'plain_text';
  for (const [key, inner] of Object.entries(node)) {
    if (key === 'text' && typeof inner === 'string') out.push({ text: inner, plain: isPlain });
    else if (key !== 'private_metadata' && key !== 'value' && key !== 'url')
      readableStrings(inner, plain, out);
  }
  return out;
}

export interface WordingProblem {
  rule: string;
  where: string;
  excerpt: string;
}

export function wordingProblems(slack: Pick<FakeSlack, 'calls' | 'allResponses'>): WordingProblem[] {
  const said: Array<{ where: string; value: unknown }> = [
    ...slack
      .calls()
      .filter((call) => SAID_BY_METHODS.has(call.method))
      .map((call) => ({ where: call.method, value: call.args })),
    ...slack.allResponses().map((post) => ({ where: 'response_url', value: post })),
  ];
  const problems: WordingProblem[] = [];
  for (const { where, value } of said) {
    for (const { text, plain } of readableStrings(value)) {
      for (const rule of RULES) {
        const found = rule.find(text, plain);
        if (found !== undefined) problems.push({ rule: rule.name, where, excerpt: found });
      }
    }
  }
  return problems;
}
