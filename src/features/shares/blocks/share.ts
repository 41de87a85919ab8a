// The channel post for a resource delegation: who shared which machines and until when. The same
// builder renders the post again, marked expired, when the delegation's lifetime is over.
import type { KnownBlock } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import {
  escapeMrkdwn,
  isoMinutes,
  LIMITS,
  message,
  mrkdwn,
  plural,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';

export interface ShareMessageInput {
  sharerUserId: string;
  machines: Pick<Machine, 'id' | 'name'>[];
  delegationId: number | string;
  accessTokenId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  expired?: boolean;
}

/** Each reader sees the expiry in their own time zone; the fallback is UTC. */
function expiryDate(expiresAt: number): string {
  return slackDate(expiresAt, '{date_short_pretty} at {time}', isoMinutes(expiresAt));
}

export function shareMessage(input: ShareMessageInput): SlackMessage {
  const sharer = `<@${escapeMrkdwn(input.sharerUserId)}>`;
  const what = plural(input.machines.length, 'machine');
  const names = input.machines.map(
    (machine) => `• *${escapeMrkdwn(machine.name)}* \`${escapeMrkdwn(machine.id)}\``,
  );
  const expiry = expiryDate(input.expiresAt);
  const blocks: KnownBlock[] = [];
  if (input.expired) {
    blocks.push({
      type: 'section',
      text: mrkdwn(`⌛ ${sharer} shared ${what} here; this share expired ${expiry}.`),
    });
    blocks.push({ type: 'section', text: mrkdwn(names.join('\n')) });
  } else {
    blocks.push({ type: 'section', text: mrkdwn(`🔗 ${sharer} shared ${what} with this channel.`) });
    blocks.push({ type: 'section', text: mrkdwn(names.join('\n')) });
    blocks.push({
      type: 'section',
      fields: [
        mrkdwn(`*Access token id*\n\`${escapeMrkdwn(input.accessTokenId)}\``, LIMITS.sectionField),
        mrkdwn(`*Expires*\n${expiry}`, LIMITS.sectionField),
      ],
    });
  }
  blocks.push({
    type: 'context',
    elements: [mrkdwn(`Resource delegation ${escapeMrkdwn(String(input.delegationId))}`)],
  });
  const machineNames = escapeMrkdwn(input.machines.map((machine) => machine.name).join(', '));
  const text = input.expired
    ? `Expired share of ${machineNames} by ${sharer}`
    : `${sharer} shared ${machineNames} until ${isoMinutes(input.expiresAt)}`;
  return message(blocks, text);
}
