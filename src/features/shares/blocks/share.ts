// What every share's messages share (times, machine lines, the Share and End share buttons), the
// "sharing…" post, and the post of a share stored as a resource delegation before shares gave access
// through accessors (blocks/accessor-share.ts), kept until those expire. The channel never sees a
// credential: a delegation's access token id stays in the sharer's private replies.
import type { Button, KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { Machine } from '../../../paperspace/schemas.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';
import { formatHoursMinutes } from '../../../slack/block-kit/format.js';
import {
  escapeMrkdwn,
  isoMinutes,
  message,
  nameMrkdwn,
  plural,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { ActionId, SLASH_COMMAND } from '../../../slack/ids.js';

export type SharedMachine = Pick<Machine, 'id' | 'name'>;

/**
 * Every time a share shows, in the post, its notification, the sharer's note and every refusal: each
 * reader sees it in their own time zone (Slack's date token); the fallback is UTC.
 */
export function when(at: number): string {
  return slackDate(at, '{date_short_pretty} at {time}', isoMinutes(at));
}

/**
 * `3 h 52 min`: how long a share still runs, for a sentence shown as plain text (an error), where
 * Slack's date token would be printed raw; a clock time there would be in no one's zone.
 */
export function timeLeft(expiresAt: number, now: number): string {
  return formatHoursMinutes((expiresAt - now) / 1000);
}

export function machineLines(machines: SharedMachine[]): string {
  return machines.map((machine) => `• ${nameMrkdwn(machine.name)}`).join('\n');
}

export function namesOf(machines: SharedMachine[]): string {
  return escapeMrkdwn(machines.map((machine) => machine.name).join(', '));
}

export const mention = (userId: string) => `<@${escapeMrkdwn(userId)}>`;

/** What ending a share does, said in End share's confirmation: it differs by how access was given. */
function endingOf(accessors: boolean): string {
  return accessors
    ? 'Their access to these machines is removed now.'
    : 'The post is marked ended. Paperspace cannot revoke the delegation, so access already handed out lasts until it expires.';
}

/**
 * A live share's End share button. It is shown only to the sharer, the one person who may use it (in
 * their note after sharing and in `/ps shares`), never on the channel's post, where everyone else
 * would meet a confirmation and then a refusal. `names`: the shared machines' names.
 */
export function endShareButton(shareId: string, names: string[], accessors: boolean): Button {
  return button({
    actionId: ActionId.shareEnd,
    text: 'End share',
    value: shareId,
    accessibilityLabel: `End the share of ${names.join(', ')}`,
    confirm: { title: 'End this share?', text: endingOf(accessors), confirm: 'End share' },
  });
}

/** Where a channel's post says the share can be ended early, and by whom. */
export function endedBy(sharerUserId: string): string {
  return `only ${mention(sharerUserId)} can end it early (\`${SLASH_COMMAND} shares\`)`;
}

const shareRequestSchema = z.strictObject({
  machineIds: z.array(z.string().min(1).max(255)).min(1),
  with: z
    .array(z.string().regex(/^[UW][A-Z0-9]+$/))
    .max(50)
    .optional(),
});

export interface ShareRequestValue {
  machineIds: string[];
  /** The Slack users an accessor share gives access to; empty for a share with the whole channel. */
  with: string[];
}

/**
 * The Share button of a confirmation carries the machine ids, and the teammates an accessor share
 * is for; the channel is where it is clicked.
 */
export function encodeShareRequest(machineIds: string[], people: string[] = []): string {
  return JSON.stringify(people.length === 0 ? { machineIds } : { machineIds, with: people });
}

export function decodeShareRequest(value: string): ShareRequestValue {
  const decoded = decodeEncodedValue(shareRequestSchema, value, 'Share button value');
  return { machineIds: decoded.machineIds, with: decoded.with ?? [] };
}

/** Posted first, before any access is given: a post Slack refuses means the bot cannot share here. */
export function sharePending(sharerUserId: string, machines: SharedMachine[]): SlackMessage {
  const names = machines.map((machine) => nameMrkdwn(machine.name, 'plain')).join(', ');
  const text = `⏳ ${mention(sharerUserId)} is sharing ${names} with this channel…`;
  return message([section(text)], `⏳ ${mention(sharerUserId)} is sharing ${namesOf(machines)}`);
}

export interface SharePostInput {
  /** The store's id of the share: End share names it. */
  shareId: string;
  sharerUserId: string;
  machines: SharedMachine[];
  delegationId: number | string;
  /** Epoch milliseconds: when Paperspace ends the delegation. */
  expiresAt: number;
  /** The share is over: expired at `expiresAt`, or ended early by the sharer at `endedAt`. */
  over: { kind: 'expired' } | { kind: 'ended'; endedAt: number };
}

/** The post of a share stored as a resource delegation, once it is over (they are no longer made). */
export function sharePost(input: SharePostInput): SlackMessage {
  const sharer = mention(input.sharerUserId);
  const what = plural(input.machines.length, 'machine');
  const delegation = `Resource delegation ${escapeMrkdwn(String(input.delegationId))}`;
  const names = namesOf(input.machines);
  if (input.over.kind === 'expired') {
    const blocks: KnownBlock[] = [
      section(`⌛ ${sharer} shared ${what} here; this share expired ${when(input.expiresAt)}.`),
      section(machineLines(input.machines)),
      contextLine(delegation),
    ];
    return message(blocks, `Expired share of ${names} by ${sharer}`);
  }
  const blocks: KnownBlock[] = [
    section(`⏹ ${sharer} ended this share of ${what} ${when(input.over.endedAt)}.`),
    section(machineLines(input.machines)),
    contextLine(
      `${delegation}. Paperspace offers no way to revoke a delegation early: access already handed out ` +
        `stays valid until ${when(input.expiresAt)}. The share is marked ended here and in \`/ps shares\`.`,
    ),
  ];
  return message(blocks, `${sharer} ended the share of ${names}`);
}
