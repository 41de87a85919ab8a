// What the people around a request see: the offer to ask (to the requester, when Paperspace would
// refuse them), the request itself (to the approvers, with the full specification and the estimated
// hourly rate), the requester's receipt with Withdraw, and the line each shows once it is decided.
// Values typed by people (machine names, reasons) are escaped; mentions are built from Slack ids.
import type { KnownBlock } from '@slack/types';
import { button, contextLine } from '../../../slack/block-kit/elements.js';
import {
  escapeMrkdwn,
  message,
  mrkdwn,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { ActionId } from '../../../slack/ids.js';
import type { ApprovalRequest, RequestStatus } from '../../../store/approval-requests.js';
import { mention } from '../../machines/blocks/machine-replies.js';
import type { PowerVerb } from '../../machines/machine-operations.js';
import { encodeApproveFor, encodeCreateOffer, encodePowerOffer } from './request-values.js';

/** Hours an owner can approve a person for, in one click. */
export const GRANT_HOURS = 4;

const section = (text: string): KnownBlock => ({ type: 'section', text: mrkdwn(text) });

/** `create machine gpu-1`, `start sam-dev`: what a request asks for, escaped. */
export function requestSubject(request: Pick<ApprovalRequest, 'kind' | 'machineName'>): string {
  const name = escapeMrkdwn(request.machineName ?? 'a machine');
  return request.kind === 'create' ? `create machine *${name}*` : `${request.kind} *${name}*`;
}

/** Told to a team member whose create Paperspace refused: the request they can send instead. */
export function createOfferMessage(params: Record<string, unknown>): SlackMessage {
  const name = escapeMrkdwn(String(params.machineName ?? 'the machine'));
  const text =
    `🔒 Only your team's administrators can create machines: Paperspace refused *${name}* for your account. ` +
    'I can send this request to them: once one of them approves, it is created for you.';
  return message(
    [
      section(text),
      section(specificationText(params)),
      {
        type: 'actions',
        elements: [
          button({
            actionId: ActionId.requestCreate,
            text: 'Send request',
            style: 'primary',
            value: encodeCreateOffer(params),
          }),
        ],
      },
    ],
    text,
  );
}

/** Told to a person who clicked Start, Stop or Restart on a machine someone else owns. */
export function powerOfferMessage(
  machine: { id: string; name: string },
  verb: PowerVerb,
  /** The Slack people who linked the owner's account (usually one); empty when no one did. */
  ownerSlackIds: string[],
): SlackMessage {
  const name = escapeMrkdwn(machine.name);
  if (ownerSlackIds.length === 0) {
    const text =
      `🔒 Only the owner of *${name}* can ${verb} it, and they have not linked a Paperspace key here, ` +
      'so I cannot ask them for you.';
    return message([section(text)], text);
  }
  const text = `🔒 Only the owner of *${name}*, ${ownerSlackIds.map(mention).join(' / ')}, can ${verb} it. Ask them to approve?`;
  return message(
    [
      section(text),
      {
        type: 'actions',
        elements: [
          button({
            actionId: ActionId.requestPower,
            text: 'Ask the owner',
            style: 'primary',
            value: encodePowerOffer({ id: machine.id, name: machine.name, verb }),
          }),
        ],
      },
    ],
    text,
  );
}

/** The create parameters, one per line, as the approver needs to judge them. */
export function specificationText(params: Record<string, unknown>): string {
  const lines = Object.entries(params)
    .filter(([key]) => key !== 'password')
    .map(([key, value]) => `• ${escapeMrkdwn(key)}: \`${escapeMrkdwn(String(value))}\``);
  return lines.join('\n');
}

function rateText(details: Record<string, unknown>): string {
  const rate = details.hourlyRate;
  return typeof rate === 'string'
    ? `Estimated rate: *$${escapeMrkdwn(rate)} / hour* (storage billed monthly on top)`
    : 'Estimated rate: unknown (no machine of this type in the account to read the rate from)';
}

const DECIDED: Record<Exclude<RequestStatus, 'open'>, string> = {
  approved: '✅ Approved',
  denied: '⛔ Denied',
  withdrawn: '↩️ Withdrawn',
  expired: '⌛ Expired',
  failed: '⚠️ Approved, but it failed',
};

/** `✅ Approved by <@U1>: reason`, the line a decided request shows in place of its buttons. */
export function decisionLine(request: ApprovalRequest): string {
  if (request.status === 'open') return '';
  const by = request.decidedBy && request.status !== 'expired' ? ` by ${mention(request.decidedBy)}` : '';
  const reason = request.reason ? `: ${escapeMrkdwn(request.reason)}` : '';
  return `${DECIDED[request.status]}${by}${reason}`;
}

/** The request as its approvers see it: Approve / Deny while open, the decision once decided. */
export function approverMessage(request: ApprovalRequest): SlackMessage {
  const text = `🙋 ${mention(request.requesterId)} asks to ${requestSubject(request)}.`;
  const blocks: KnownBlock[] = [section(text)];
  const params = request.details.params;
  if (request.kind === 'create' && params !== null && typeof params === 'object') {
    blocks.push(section(specificationText(params as Record<string, unknown>)));
    blocks.push(contextLine(rateText(request.details)));
  }
  if (request.status !== 'open') {
    blocks.push(contextLine(decisionLine(request)));
    return message(blocks, `${text} ${decisionLine(request)}`);
  }
  blocks.push(contextLine(`Expires ${slackDate(request.expiresAt, '{date_short_pretty} {time}')}.`));
  const elements = [
    button({ actionId: ActionId.requestApprove, text: 'Approve', style: 'primary', value: request.id }),
    ...(request.kind === 'create'
      ? []
      : [
          button({
            actionId: ActionId.requestApproveFor,
            text: `Approve for ${GRANT_HOURS} hours`,
            value: encodeApproveFor({ id: request.id, hours: GRANT_HOURS }),
          }),
        ]),
    button({ actionId: ActionId.requestDeny, text: 'Deny', style: 'danger', value: request.id }),
  ];
  blocks.push({ type: 'actions', elements });
  return message(blocks, text);
}

/** The requester's copy: who was asked, Withdraw while open, the decision once decided. */
export function receiptMessage(request: ApprovalRequest, askedText: string): SlackMessage {
  const text = `📨 Your request to ${requestSubject(request)} was sent to ${askedText}.`;
  const blocks: KnownBlock[] = [section(text)];
  if (request.status !== 'open') {
    blocks.push(contextLine(decisionLine(request)));
    return message(blocks, `${text} ${decisionLine(request)}`);
  }
  blocks.push(
    contextLine(`Expires ${slackDate(request.expiresAt, '{date_short_pretty} {time}')} unless decided.`),
    {
      type: 'actions',
      elements: [button({ actionId: ActionId.requestWithdraw, text: 'Withdraw', value: request.id })],
    },
  );
  return message(blocks, text);
}

/** One line per request, for /ps requests. */
export function requestLine(request: ApprovalRequest, perspective: 'mine' | 'waiting'): string {
  const who = perspective === 'waiting' ? `${mention(request.requesterId)} asks to ` : '';
  const expires = slackDate(request.expiresAt, '{date_short_pretty} {time}');
  return `• ${who}${requestSubject(request)} (expires ${expires})`;
}
