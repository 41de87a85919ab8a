// The bot's own message to a person about a change Slackbot proposed for them: what it is, what will
// happen, Confirm and Cancel, and until when. Once decided (or expired) the buttons give way to a line
// saying so, so the message never offers what can no longer be done.
import type { KnownBlock } from '@slack/types';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import {
  escapeMrkdwn,
  mentionedUserId,
  message,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { ActionId } from '../../../slack/ids.js';

export interface ProposalView {
  id: string;
  /** The tool's title, as Slackbot chose it ("Stop a machine"). */
  title: string;
  /** The parameters, as the person can check them. */
  details: readonly string[];
  /** What happens on Confirm, in the operation's own words. */
  effect: string;
  expiresAt: number;
}

function heading(view: ProposalView): KnownBlock[] {
  const lines = [`*${escapeMrkdwn(view.title)}?* Slackbot asked me to do this for you.`, ...view.details];
  return [section(lines.join('\n')), contextLine(escapeMrkdwn(view.effect))];
}

export function proposalMessage(view: ProposalView): SlackMessage {
  const blocks: KnownBlock[] = [
    ...heading(view),
    {
      type: 'actions',
      elements: [
        button({
          actionId: ActionId.slackbotConfirm,
          text: 'Confirm',
          value: view.id,
          style: 'primary',
          accessibilityLabel: `Confirm: ${view.title}`,
        }),
        button({
          actionId: ActionId.slackbotCancel,
          text: 'Cancel',
          value: view.id,
          accessibilityLabel: `Cancel: ${view.title}`,
        }),
      ],
    },
    contextLine(
      `Only you can confirm it, until ${slackDate(view.expiresAt, '{time}')}. Nothing happens until you do.`,
    ),
  ];
  return message(blocks, `${view.title}? Slackbot asked me to do this for you: confirm or cancel.`);
}

/** The message once its buttons are spent: `outcome` says what became of it. */
export function decidedProposalMessage(view: ProposalView, outcome: string): SlackMessage {
  return message([...heading(view), contextLine(outcome)], `${view.title}: ${outcome}`);
}

/** One line per parameter a person can check, its value escaped: names come from people and Paperspace. */
export function detailLines(params: unknown): string[] {
  if (typeof params !== 'object' || params === null) return [];
  return Object.entries(params).flatMap(([key, value]) => {
    const shown = shownValue(value);
    return shown === undefined ? [] : [`• ${escapeMrkdwn(key)}: ${shown}`];
  });
}

function shownValue(value: unknown): string | undefined {
  if (value === null || value === undefined || value === false) return undefined;
  if (value === true) return 'yes';
  if (typeof value === 'string') {
    // A person named as <@U123> (or <@U123|name>) stays a mention; anything else is shown as typed.
    const mentioned = mentionedUserId(value);
    return mentioned === undefined ? `\`${escapeMrkdwn(value)}\`` : `<@${mentioned}>`;
  }
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    const items = value.flatMap((item) => shownValue(item) ?? []);
    return items.length === 0 ? undefined : items.join(', ');
  }
  if (typeof value === 'object') {
    const pairs = Object.entries(value).flatMap(([key, inner]) => {
      const shown = shownValue(inner);
      return shown === undefined ? [] : [`${escapeMrkdwn(key)}=${shown}`];
    });
    return pairs.length === 0 ? undefined : pairs.join(' ');
  }
  return undefined;
}
