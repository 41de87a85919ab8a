// Replies about the person's own link: /ps whoami, /ps logout, and the message sent when a key is
// linked. They show the masked key and the Paperspace account it belongs to, never a secret.

import { contextLine, section } from '../../../slack/block-kit/elements.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage, slackDate } from '../../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';

export interface LinkedAccountView {
  maskedKey: string;
  email: string;
  userId: string;
  /** Epoch milliseconds. */
  linkedAt: number;
  hasAccessToken: boolean;
  /**
   * Shared drives need an access token of their own (the contract's GraphQL); false on v1, whose
   * drives answer the same API key, so there is nothing to add.
   */
  drivesNeedAccessToken: boolean;
}

const code = (text: string) => `\`${escapeMrkdwn(text)}\``;

export function whoamiMessage(view: LinkedAccountView): SlackMessage {
  const lines = [
    `🔑 Your key ${code(view.maskedKey)} belongs to *${escapeMrkdwn(view.email)}*`,
    // No team id: an individual account has one too, and an id names no team a person would know.
    `Paperspace user ${code(view.userId)}`,
    `Linked ${slackDate(view.linkedAt, '{date_short_pretty} at {time}')}`,
    !view.drivesNeedAccessToken
      ? 'Shared drives: reached with this same key'
      : view.hasAccessToken
        ? 'Access token: linked (shared drives work)'
        : `Access token: none (shared drives need one: add it with \`${SLASH_COMMAND} login\`)`,
  ];
  return {
    blocks: [
      section(lines.join('\n')),
      contextLine(`\`${SLASH_COMMAND} login\` replaces the key · \`${SLASH_COMMAND} logout\` forgets it`),
    ],
    text: `Your key ${escapeMrkdwn(view.maskedKey)} belongs to ${escapeMrkdwn(view.email)}`,
  };
}

/** Sent to the person's DM once a key is linked: a record, and an alarm if it was not them. */
export function linkedNotice(
  view: Pick<LinkedAccountView, 'maskedKey' | 'email' | 'hasAccessToken'>,
  /** Said when the team has policies that stop machines with the owner's key. */
  policies?: string,
): SlackMessage {
  const text =
    `✅ Your Paperspace key ${code(view.maskedKey)} is now linked to *${escapeMrkdwn(view.email)}*` +
    (view.hasAccessToken ? ', with an access token for shared drives.' : '.');
  return {
    blocks: [
      section(text),
      ...(policies === undefined ? [] : [section(escapeMrkdwn(policies))]),
      contextLine(
        `Not you? Run \`${SLASH_COMMAND} logout\` and rotate the key in Paperspace. ` +
          `\`${SLASH_COMMAND} whoami\` shows the link at any time.`,
      ),
    ],
    text,
  };
}

/**
 * The answer to /ps logout: that the key was forgotten (named by its mask when it could still be
 * read), or that there was none.
 */
export function unlinkedMessage(forgotten: { maskedKey: string | undefined } | undefined): SlackMessage {
  const key =
    forgotten?.maskedKey === undefined
      ? 'your Paperspace key'
      : `your Paperspace key ${code(forgotten.maskedKey)}`;
  const text =
    forgotten === undefined
      ? `No Paperspace key is linked, so there was nothing to forget. \`${SLASH_COMMAND} login\` links one.`
      : `👋 Forgot ${key}. The bot can no longer act for you until you \`${SLASH_COMMAND} login\` again. ` +
        'The key itself still works in Paperspace: rotate it there if it leaked.';
  return plainMessage(text);
}
