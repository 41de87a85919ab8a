// Short replies: a usage error, the login prompt and a plain error. Text from users and from
// the API is escaped; these messages are usually ephemeral but still go through Slack's mrkdwn.
import { ActionId, SLASH_COMMAND } from '../ids.js';
import { button, contextLine, section } from './elements.js';
import { escapeMrkdwn, message, type SlackMessage } from './text.js';

/**
 * One section of mrkdwn with the same words as the notification text, not cut: the short answers and
 * notes most features send. `text` is mrkdwn, already escaped.
 */
export function plainMessage(text: string): SlackMessage {
  return { blocks: [section(text)], text };
}

/** What was wrong with the command and the usage line to get it right. */
export function usageErrorMessage(error: string, usage: string): SlackMessage {
  const text = `⚠️ ${escapeMrkdwn(error)}\nUsage: \`${escapeMrkdwn(usage)}\``;
  return message([section(text)], text);
}

/** Shown (ephemerally) to someone who has not linked an API key yet. */
export function loginPrompt(): SlackMessage {
  const text = `Link your Paperspace API key to use ${SLASH_COMMAND}.`;
  return {
    blocks: [
      section(`🔑 ${text}`),
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
  return message([section(line)], line);
}
