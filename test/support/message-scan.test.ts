// The scan every bot test ends with (use-test-bot.ts): it must find what a person should never read,
// and let through what is fine (a mention Slack draws as a name, a code span without one).
import { describe, expect, it } from 'vitest';
import type { ApiCall, ResponseUrlPost } from './fake-slack.js';
import { wordingProblems } from './message-scan.js';

const said = (calls: Partial<ApiCall>[], responses: ResponseUrlPost[] = []) =>
  wordingProblems({
    calls: () =>
      calls.map((call) => ({
        method: 'chat.postMessage',
        args: {},
        token: 'x',
        contentType: 'json',
        ...call,
      })),
    allResponses: () => responses,
  });

const section = (text: string) => [{ type: 'section', text: { type: 'mrkdwn', text } }];

describe('the wording scan', () => {
  it('finds status codes wherever they are said', () => {
    const problems = said(
      [{ args: { blocks: section('❌ Paperspace rejected the API key (401) while trying to log in.') } }],
      [{ text: 'Slack refused it (HTTP 500)' }],
    );
    expect(problems.map((problem) => problem.rule)).toEqual(['an HTTP status code', 'an HTTP status code']);
  });

  it('finds a mention printed as text: in a code span, escaped, or in plain text', () => {
    const problems = said([
      { args: { blocks: section('Filters: `owner=<@U0MAYA>`') } },
      { args: { blocks: section('No machines match owner=&lt;@U0ADA&gt;') } },
      {
        method: 'views.open',
        args: { view: { blocks: [{ type: 'header', text: { type: 'plain_text', text: 'For <@U0SAM>' } }] } },
      },
    ]);
    expect(problems).toHaveLength(3);
  });

  it('lets through a drawn mention beside code spans, and a code span without one', () => {
    const problems = said([
      {
        args: { blocks: section('Key linked (`/ps login`) · only <@U0ADA> can end it early (`/ps shares`)') },
      },
      { args: { blocks: section('`owner=`<@U0MAYA> · `state=ready`') } },
      { method: 'chat.postMessage', args: { blocks: section('psada003 is (mostly) ready in 2 min') } },
    ]);
    expect(problems).toEqual([]);
  });
});
