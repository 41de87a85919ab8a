// Short replies: help, a usage error, the login prompt and a plain error. Text from users and from
// the API is escaped; these messages are usually ephemeral but still go through Slack's mrkdwn.
import type { KnownBlock } from '@slack/types';
import { ActionId, SLASH_COMMAND } from '../ids.js';
import { button, contextLine, header } from './elements.js';
import { escapeMrkdwn, LIMITS, message, mrkdwn, type SlackMessage } from './text.js';

export interface HelpEntry {
  usage: string;
  summary: string;
}

/** The command table, as many sections as 3000 characters each need. */
export function helpMessage(entries: HelpEntry[]): SlackMessage {
  const lines = entries.map((entry) => `\`${escapeMrkdwn(entry.usage)}\`  ${escapeMrkdwn(entry.summary)}`);
  const sections: string[] = [];
  let current = '';
  for (const line of lines) {
    const candidate = current === '' ? line : `${current}\n${line}`;
    if (candidate.length > LIMITS.sectionText && current !== '') {
      sections.push(current);
      current = line;
    } else {
      current = candidate;
    }
  }
  if (current !== '') sections.push(current);
  const title = `${SLASH_COMMAND} commands`;
  const blocks: KnownBlock[] = [
    header(title),
    ...sections
      .slice(0, LIMITS.messageBlocks - 2)
      .map((text): KnownBlock => ({ type: 'section', text: mrkdwn(text) })),
    contextLine(`\`${SLASH_COMMAND} help <command>\` shows one command in detail.`),
  ];
  const names = entries.map((entry) => entry.usage.split(/\s+/).slice(0, 2).join(' '));
  return message(blocks, `${title}: ${escapeMrkdwn([...new Set(names)].join(', '))}`);
}

/** What was wrong with the command and the usage line to get it right. */
export function usageErrorMessage(error: string, usage: string): SlackMessage {
  const text = `⚠️ ${escapeMrkdwn(error)}\nUsage: \`${escapeMrkdwn(usage)}\``;
  return message([{ type: 'section', text: mrkdwn(text) }], text);
}

/** Shown (ephemerally) to someone who has not linked an API key yet. */
export function loginPrompt(): SlackMessage {
  const text = `Link your Paperspace API key to use ${SLASH_COMMAND}.`;
  return {
    blocks: [
      { type: 'section', text: mrkdwn(`🔑 ${text}`) },
      {
        type: 'actions',
        elements: [
          button({
            actionId: ActionId.login,
            text: 'Log in',
            style: 'primary',
            accessibilityLabel: 'Link your Paperspace API key',
          }),
        ],
      },
      contextLine('Your key is stored encrypted and used only for the actions you take.'),
    ],
    text,
  };
}

/** A failure in one sentence; `text` is escaped, so it may quote user input or an API message. */
export function errorMessage(text: string): SlackMessage {
  const line = `❌ ${escapeMrkdwn(text)}`;
  return message([{ type: 'section', text: mrkdwn(line) }], line);
}
