// /ps requests: the person's own open requests and those waiting for their decision, one section each.
// A section lists the requests that fit Slack's 3,000 characters (at most MAX_LISTED) and says how many
// more there are, instead of being cut mid-line; both sections together stay well inside the budget.
import type { KnownBlock } from '@slack/types';
import { section } from '../../../slack/block-kit/elements.js';
import { linesThatFit } from '../../../slack/block-kit/message-budget.js';
import { LIMITS, message, type SlackMessage } from '../../../slack/block-kit/text.js';
import type { StoredRequest } from '../../../store/approval-requests.js';
import { requestLine } from './request-messages.js';

/** A list a person reads at a glance; the rest each have their own message with buttons. */
const MAX_LISTED = 20;

function requestSection(title: string, lines: string[]): KnownBlock {
  const heading = `*${title}*`;
  const more = (leftOut: number) => `…and ${leftOut} more, each in its own message with its buttons.`;
  const listed =
    lines.length === 0
      ? '_none_'
      : linesThatFit(lines, more, LIMITS.sectionText - heading.length - 1, MAX_LISTED);
  return section(`${heading}\n${listed}`);
}

export function requestListMessage(mine: StoredRequest[], waiting: StoredRequest[]): SlackMessage {
  return message(
    [
      requestSection(
        'Your open requests',
        mine.map((request) => requestLine(request, 'mine')),
      ),
      requestSection(
        'Waiting for you',
        waiting.map((request) => requestLine(request, 'waiting')),
      ),
    ],
    `${mine.length} open requests of yours, ${waiting.length} waiting for you`,
  );
}
