// The messages of a share: the sharer names teammates, who get access at once, and everyone else in
// the channel may claim it with Get access; each is made an accessor of the machines until the share
// ends and the bot removes them. The post says plainly what members can do and until when, who has
// access, and, once the share is over, whether that access is gone.
import type { KnownBlock } from '@slack/types';
import type { Capabilities } from '../../../paperspace/dialect.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { escapeMrkdwn, message, plural, type SlackMessage } from '../../../slack/block-kit/text.js';
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

type AccessorRights = Capabilities['accessorRights'];

function people(slackUserIds: readonly string[]): string {
  return slackUserIds.map(mention).join(', ');
}

/**
 * What a person given access can do, and until when, told to the channel (`they`) or to the person
 * who got it (`you`): it differs by what the API lets an accessor do.
 */
export function whatAccessGives(
  rights: AccessorRights,
  sharerUserId: string,
  until: number,
  reader: 'they' | 'you' = 'they',
): string {
  const [who, whose] = reader === 'you' ? ['You', 'your'] : ['They', 'their'];
  const can =
    rights === 'power'
      ? `start, stop and restart these machines with ${whose} own linked key`
      : `see and use these machines from ${whose} own Paperspace account (they appear in ${whose} \`${SLASH_COMMAND} list\`)`;
  // Where the API lets an accessor only see and use a machine, its owner alone powers it, then as after.
  const owner = rights === 'power' ? '' : ` Only ${mention(sharerUserId)} can start and stop them.`;
  return `${who} can ${can} until ${when(until)}, when I remove ${whose} access.${owner} Nothing secret is posted here.`;
}

export interface AccessorShareConfirmationInput {
  sharerUserId: string;
  channel: string;
  machines: SharedMachine[];
  /** The teammates (Slack user ids) named, who would get access at once. */
  with: string[];
  expiresAt: number;
  rights: AccessorRights;
}

/** Shown only to the sharer, before any access is given. */
export function accessorShareConfirmation(input: AccessorShareConfirmationInput): SlackMessage {
  const where = `<#${escapeMrkdwn(input.channel)}>`;
  const named =
    input.with.length > 0
      ? ` ${people(input.with)} ${input.with.length === 1 ? 'gets' : 'get'} access at once;`
      : '';
  const headline = `Share ${plural(input.machines.length, 'machine')} in ${where}?`;
  const who = `Everyone in ${where} can get access with one click on the post;${named} I remove it when the share ends.`;
  const blocks: KnownBlock[] = [
    section(`🔗 *${headline}*\n${machineLines(input.machines)}`),
    section(`${who}\n${whatAccessGives(input.rights, input.sharerUserId, input.expiresAt)}`),
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
  return message(blocks, `Share ${namesOf(input.machines)} in this channel?`);
}

export interface AccessorSharePostInput {
  shareId: string;
  sharerUserId: string;
  machines: SharedMachine[];
  grants: AccessorGrant[];
  expiresAt: number;
  /** What access gives, said on a live share's post. */
  rights?: AccessorRights;
  over?: { kind: 'expired' } | { kind: 'ended'; endedAt: number };
  /** Why removing the access that remains failed, once the share is over. */
  revokeFailure?: string | null;
}

/** Who still has access to what, once the share is over: nothing, or the grants not yet removed. */
function accessLeft(input: AccessorSharePostInput): string {
  const left = input.grants.filter((grant) => !grant.revoked);
  if (left.length === 0) {
    return input.grants.length === 0 ? 'Nobody had taken access.' : 'Their access was removed.';
  }
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

/** Everyone the share gave access to, once each. */
function holders(grants: readonly AccessorGrant[]): string[] {
  return [...new Set(grants.map((grant) => grant.slackUserId))];
}

export function accessorSharePost(input: AccessorSharePostInput): SlackMessage {
  const sharer = mention(input.sharerUserId);
  const what = plural(input.machines.length, 'machine');
  const recipients = holders(input.grants);
  const withWhom = recipients.length > 0 ? ` with ${people(recipients)}` : '';
  const names = namesOf(input.machines);
  if (input.over !== undefined) {
    const headline =
      input.over.kind === 'expired'
        ? `⌛ ${sharer}'s share of ${what}${withWhom} expired ${when(input.expiresAt)}.`
        : `⏹ ${sharer} ended this share of ${what}${withWhom} ${when(input.over.endedAt)}.`;
    const blocks: KnownBlock[] = [
      section(headline),
      section(machineLines(input.machines)),
      contextLine(accessLeft(input)),
    ];
    return message(blocks, `The share of ${names} by ${sharer} is over`);
  }
  const has =
    recipients.length === 0 ? 'Nobody has taken access yet.' : `Access so far: ${people(recipients)}.`;
  const blocks: KnownBlock[] = [
    section(
      `🔗 ${sharer} shared ${what} with this channel until ${when(input.expiresAt)}: *Get access* to use them.`,
    ),
    section(machineLines(input.machines)),
    section(whatAccessGives(input.rights ?? 'use', input.sharerUserId, input.expiresAt)),
    {
      type: 'actions',
      elements: [
        button({
          actionId: ActionId.shareClaim,
          text: 'Get access',
          style: 'primary',
          value: input.shareId,
          accessibilityLabel: `Get access to ${input.machines.map((machine) => machine.name).join(', ')}`,
        }),
      ],
    },
    contextLine(
      `${has} Get access needs your own Paperspace key linked (\`${SLASH_COMMAND} login\`) · ${endedBy(input.sharerUserId)}`,
    ),
  ];
  return message(blocks, `${sharer} shared ${names} until ${when(input.expiresAt)}`);
}
