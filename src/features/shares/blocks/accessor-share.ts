// The messages of a share on an API without resource delegations (Paperspace v1): the sharer names
// teammates, who are made accessors of the machines until the share ends and the bot removes them.
// The post says who got access to what and, once the share is over, whether that access is gone.
import type { KnownBlock } from '@slack/types';
import { button, contextLine } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, message, mrkdwn, plural, type SlackMessage } from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';
import type { AccessorGrant } from '../../../store/delegations.js';
import {
  encodeShareRequest,
  endedBy,
  machineLines,
  mention,
  namesOf,
  type SharedMachine,
  when,
} from './share.js';

function people(slackUserIds: readonly string[]): string {
  return slackUserIds.map(mention).join(', ');
}

function whatTheyGet(until: number): string {
  return (
    `They can start, stop and restart these machines with their own linked key until ${when(until)}; ` +
    'then I remove their access. Nothing secret is posted here.'
  );
}

export interface AccessorShareConfirmationInput {
  sharerUserId: string;
  channel: string;
  machines: SharedMachine[];
  /** The teammates (Slack user ids) who would be made accessors. */
  with: string[];
  expiresAt: number;
}

/** Shown only to the sharer, before any access is given. */
export function accessorShareConfirmation(input: AccessorShareConfirmationInput): SlackMessage {
  const headline = `Give ${people(input.with)} access to ${plural(input.machines.length, 'machine')}, posted in <#${escapeMrkdwn(input.channel)}>?`;
  const blocks: KnownBlock[] = [
    { type: 'section', text: mrkdwn(`🔗 *${headline}*\n${machineLines(input.machines)}`) },
    { type: 'section', text: mrkdwn(whatTheyGet(input.expiresAt)) },
    {
      type: 'actions',
      elements: [
        button({
          actionId: ActionId.shareConfirm,
          text: 'Share',
          style: 'primary',
          value: encodeShareRequest(
            input.machines.map((machine) => machine.id),
            input.with,
          ),
        }),
        button({ actionId: ActionId.shareCancel, text: 'Cancel' }),
      ],
    },
    contextLine(
      `Nobody gets access and nothing is posted until you confirm. You can end the share early here or with \`${SLASH_COMMAND} shares\`.`,
    ),
  ];
  return message(blocks, `Share ${namesOf(input.machines)} with ${people(input.with)}?`);
}

export interface AccessorSharePostInput {
  shareId: string;
  sharerUserId: string;
  machines: SharedMachine[];
  grants: AccessorGrant[];
  expiresAt: number;
  over?: { kind: 'expired' } | { kind: 'ended'; endedAt: number };
  /** Why removing the access that remains failed, once the share is over. */
  revokeFailure?: string | null;
}

/** Who still has access to what, once the share is over: nothing, or the grants not yet removed. */
function accessLeft(input: AccessorSharePostInput): string {
  const left = input.grants.filter((grant) => !grant.revoked);
  if (left.length === 0) return 'Their access was removed.';
  const names = new Map(input.machines.map((machine) => [machine.id, machine.name]));
  const list = left
    .map(
      (grant) =>
        `${mention(grant.slackUserId)} on ${escapeMrkdwn(names.get(grant.machineId) ?? grant.machineId)}`,
    )
    .join(', ');
  const why = input.revokeFailure ? ` Removing it failed: ${escapeMrkdwn(input.revokeFailure)}` : '';
  return `⚠️ Access not removed yet: ${list}.${why} I keep trying.`;
}

export function accessorSharePost(input: AccessorSharePostInput): SlackMessage {
  const sharer = mention(input.sharerUserId);
  const what = plural(input.machines.length, 'machine');
  const recipients = [...new Set(input.grants.map((grant) => grant.slackUserId))];
  const names = namesOf(input.machines);
  if (input.over !== undefined) {
    const headline =
      input.over.kind === 'expired'
        ? `⌛ ${sharer}'s share of ${what} with ${people(recipients)} expired ${when(input.expiresAt)}.`
        : `⏹ ${sharer} ended this share of ${what} with ${people(recipients)} ${when(input.over.endedAt)}.`;
    const blocks: KnownBlock[] = [
      { type: 'section', text: mrkdwn(headline) },
      { type: 'section', text: mrkdwn(machineLines(input.machines)) },
      contextLine(accessLeft(input)),
    ];
    return message(blocks, `The share of ${names} by ${sharer} is over`);
  }
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: mrkdwn(
        `🔗 ${sharer} gave ${people(recipients)} access to ${what} until ${when(input.expiresAt)}.`,
      ),
    },
    { type: 'section', text: mrkdwn(machineLines(input.machines)) },
    { type: 'section', text: mrkdwn(whatTheyGet(input.expiresAt)) },
    contextLine(`Paperspace machine access · ${endedBy(input.sharerUserId)}`),
  ];
  return message(blocks, `${sharer} shared ${names} until ${when(input.expiresAt)}`);
}
