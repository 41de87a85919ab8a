// What the people around a request see: the offer to ask (to the requester, when Paperspace would
// refuse them), the request itself (to the approvers, with the full specification and the estimated
// hourly rate), the requester's receipt with Withdraw, and the line each shows once it is decided.
// Values typed by people (machine names, reasons) are escaped; mentions are built from Slack ids.
import type { KnownBlock } from '@slack/types';
import { raiseStepCents } from '../../../domain/budgets.js';
import { button, contextLine, section } from '../../../slack/block-kit/elements.js';
import { formatCents, formatKnownHourlyRate, spentOfBudget } from '../../../slack/block-kit/format.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  escapeMrkdwn,
  mention,
  message,
  nameMrkdwn,
  type SlackMessage,
  slackDate,
} from '../../../slack/block-kit/text.js';
import { ActionId } from '../../../slack/ids.js';
import type { CreateDetails, OverBudget, RequestDetails } from '../../../store/approval-request-details.js';
import type { ApprovalRequest, RequestStatus, StoredRequest } from '../../../store/approval-requests.js';
import {
  encodeApproveFor,
  encodeApproveRaise,
  encodeCreateOffer,
  encodePowerOffer,
} from '../../machines/blocks/request-values.js';
import type { PowerVerb } from '../../machines/machine-operations.js';
import { specificationText } from './request-specification.js';

/** Hours an owner can approve a person for, in one click. */
const GRANT_HOURS = 4;

/** Said of a stored request whose details do not parse (see UnreadableRequest). */
const UNREADABLE = 'cannot be read (its stored details are damaged)';

/** Told to a person who clicked on a request that cannot be read: nothing was done, and why. */
export const unreadableRequestMessage = (request: Pick<StoredRequest, 'kind' | 'machineName'>) =>
  plainMessage(
    `⚠️ This request to ${requestSubject(request)} ${UNREADABLE}, so nothing was done. ` +
      'It has been logged, and it expires on its own; ask again if it is still needed.',
  );

/** When the request closes unless decided, in the reader's time zone. */
const expiry = (request: Pick<StoredRequest, 'expiresAt'>) =>
  slackDate(request.expiresAt, '{date_short_pretty} {time}');

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
    'I can send it to them as a request, with the specification below: once one of them approves, it is created for you.';
  return message(
    [
      section(text),
      section(specificationText(params)),
      {
        type: 'actions',
        elements: [
          button({
            actionId: ActionId.requestCreate,
            text: 'Send request to administrators',
            style: 'primary',
            value: encodeCreateOffer(params),
          }),
        ],
      },
    ],
    text,
  );
}

const askButton = (machine: { id: string; name: string }, verb: PowerVerb, text: string): KnownBlock => ({
  type: 'actions',
  elements: [
    button({
      actionId: ActionId.requestPower,
      text,
      style: 'primary',
      value: encodePowerOffer({ id: machine.id, name: machine.name, verb }),
    }),
  ],
});

/** Told to a person who clicked Start, Stop or Restart on a machine someone else owns. */
export function powerOfferMessage(
  machine: { id: string; name: string },
  verb: PowerVerb,
  /** The Slack people who linked the owner's account (usually one); empty when no one did. */
  ownerSlackIds: string[],
  owner: {
    /** How Paperspace names the owner, said when they have not linked a key. */
    ownerName?: string | undefined;
    /** The team's approvals channel, where a request can wait for an owner who has not linked a key. */
    approvalsChannel?: string | undefined;
  } = {},
): SlackMessage {
  const name = escapeMrkdwn(machine.name);
  if (ownerSlackIds.length === 0) {
    const who = owner.ownerName ? `, ${escapeMrkdwn(owner.ownerName)},` : '';
    const lead = `🔒 Only the owner of *${name}*${who} can ${verb} it, and they have not linked a Paperspace key here, so I cannot ask them directly.`;
    if (!owner.approvalsChannel) {
      const text = `${lead} Ask them to run \`/ps login\`, or ask an administrator to set an approvals channel with \`/ps approvals #channel\`, where such requests wait for the owner.`;
      return message([section(text)], text);
    }
    const text = `${lead} I can post your request in <#${owner.approvalsChannel}>: it waits there until they link a key and approve it.`;
    return message([section(text), askButton(machine, verb, `Ask in the approvals channel`)], text);
  }
  const text = `🔒 Only the owner of *${name}*, ${ownerSlackIds.map(mention).join(' / ')}, can ${verb} it. Ask them to approve?`;
  return message([section(text), askButton(machine, verb, `Ask the owner to ${verb}`)], text);
}

/**
 * Told after Paperspace refused a person's start, stop or restart of a machine whose owner it does not
 * name (v1), and that has no owner yet here either: its team's administrators answer for it.
 */
export function ownerUnknownOfferMessage(
  machine: { id: string; name: string },
  verb: PowerVerb,
  /** The team's linked administrators. */
  administratorSlackIds: string[],
): SlackMessage {
  const name = escapeMrkdwn(machine.name);
  const lead = `🔒 Paperspace refused to ${verb} *${name}* with your key: only its owner can, and Paperspace does not say who that is. It has no owner yet here either`;
  if (administratorSlackIds.length === 0) {
    const text = `${lead}, and none of your team's administrators has linked a key here, so there is no one I can ask.`;
    return message([section(text)], text);
  }
  const text = `${lead}, so I can ask your linked teammates who administer the team (${administratorSlackIds.map(mention).join(', ')}).`;
  return message([section(text), askButton(machine, verb, `Ask the administrators`)], text);
}

/** The requester's own words (a Workflow Builder step's reason), quoted line by line. */
function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${escapeMrkdwn(line)}`)
    .join('\n');
}

function rateText({ hourlyRate, hourlyRateBasis }: CreateDetails): string {
  if (typeof hourlyRate !== 'string' || !Number.isFinite(Number(hourlyRate))) {
    return 'Estimated rate: unknown (no machine of this type in the team to read the rate from, and no published list price for it)';
  }
  const rate = formatKnownHourlyRate({ dollars: hourlyRate, basis: hourlyRateBasis ?? 'account' });
  const whence =
    hourlyRateBasis === 'list-price'
      ? 'Paperspace’s published price: no machine of this type in the team to read the team’s rate from; '
      : '';
  return `Estimated rate: *${escapeMrkdwn(rate)}* (${whence}storage billed monthly on top)`;
}

const DECIDED: Record<Exclude<RequestStatus, 'open'>, string> = {
  approved: '✅ Approved',
  denied: '⛔ Denied',
  withdrawn: '↩️ Withdrawn',
  expired: '⌛ Expired',
  failed: '⚠️ Approved, but it failed',
};

/** What "Approve for N hours" gave: the requester may power the machine until then. */
export interface StandingGrant {
  hours: number;
  /** Epoch milliseconds. */
  until: number;
}

/**
 * `✅ Approved by <@U1>: reason`, the line a decided request shows in place of its buttons; with a
 * standing grant, `✅ Approved for 4 hours, until <date> by <@U1>`, the date in the reader's zone.
 */
export function decisionLine(
  request: Pick<StoredRequest, 'status' | 'decidedBy' | 'reason'>,
  grant?: StandingGrant,
): string {
  if (request.status === 'open') return '';
  const by = request.decidedBy && request.status !== 'expired' ? ` by ${mention(request.decidedBy)}` : '';
  const reason = request.reason ? `: ${escapeMrkdwn(request.reason)}` : '';
  const granted =
    request.status === 'approved' && grant !== undefined
      ? ` for ${grant.hours} hours, until ${slackDate(grant.until, '{date_short_pretty} at {time}')}`
      : '';
  return `${DECIDED[request.status]}${granted}${by}${reason}`;
}

/**
 * Why these people were asked, when Paperspace did not name them itself: said on the request, so an
 * approver knows Paperspace may still refuse their key.
 */
function whoIsAskedNote(details: RequestDetails): string | undefined {
  // Only a create's details carry its parameters.
  if ('params' in details) {
    if (details.approverBasis === 'learned') {
      return 'Sent to the teammates whose creates Paperspace has accepted: this API does not list a team’s administrators.';
    }
    if (details.approverBasis === 'unknown') {
      return 'This Paperspace API does not say who administers a team, so this went to every linked teammate it has not refused a create. Only an administrator’s approval goes through: Paperspace refuses anyone else’s, and the request stays open.';
    }
    return undefined;
  }
  if (details.ownerUnknown === true) {
    return 'Paperspace does not say who owns this machine, and it has no owner yet here, so this went to the team’s administrators. Only the approval of someone Paperspace lets power it goes through: anyone else’s is refused, and the request stays open.';
  }
  if (typeof details.ownerName === 'string') {
    return `For its owner, ${escapeMrkdwn(details.ownerName)}, who has not linked a Paperspace key here yet: once they run \`/ps login\`, they can approve it here.`;
  }
  return undefined;
}

/** The request as its approvers see it: Approve / Deny while open, the decision once decided. */
export function approverMessage(request: ApprovalRequest, grant?: StandingGrant): SlackMessage {
  // In the owner's own DM the request is about their machine, and says so.
  const text =
    request.kind !== 'create' && request.ownerId !== null
      ? `🙋 ${mention(request.requesterId)} asks you to ${request.kind} your machine ${nameMrkdwn(request.machineName ?? 'a machine')}.`
      : `🙋 ${mention(request.requesterId)} asks to ${requestSubject(request)}.`;
  const blocks: KnownBlock[] = [section(text)];
  const { details } = request;
  if ('params' in details) {
    // Sent by a Workflow Builder step, with the requester's words for why.
    if (details.reason) blocks.push(section(quoted(details.reason)));
    blocks.push(
      section(
        specificationText(details.params, {
          templateLabel: details.templateLabel,
          forSlackUser: request.requesterId,
        }),
      ),
    );
    blocks.push(contextLine(rateText(details)));
  }
  const note = whoIsAskedNote(details);
  if (note) blocks.push(contextLine(note));
  if (details.overBudget) blocks.push(section(overBudgetText(request.kind, details.overBudget)));
  if (request.status !== 'open') {
    blocks.push(contextLine(decisionLine(request, grant)));
    return message(blocks, `${text} ${decisionLine(request, grant)}`);
  }
  blocks.push(contextLine(`Expires ${expiry(request)}.`));
  if (details.overBudget) {
    blocks.push({ type: 'actions', elements: overBudgetButtons(request.id, details.overBudget) });
    return message(blocks, text);
  }
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

/** Why a request past a budget was sent, and what approving it does. */
function overBudgetText(kind: ApprovalRequest['kind'], overBudget: OverBudget): string {
  const whose =
    overBudget.budget === 'team' ? 'The team’s budget' : `The budget of ${mention(overBudget.budget)}`;
  const figures = spentOfBudget(overBudget.spentCents, overBudget.amountCents);
  const effect =
    kind === 'start'
      ? 'Approving starts it with the requester’s own key.'
      : 'Approving creates it with your key, for the requester.';
  return `💸 ${whose} is spent (${figures}). ${effect}`;
}

function overBudgetButtons(id: string, overBudget: OverBudget) {
  const cents = raiseStepCents(overBudget);
  return [
    button({ actionId: ActionId.requestApprove, text: 'Approve once', style: 'primary', value: id }),
    button({
      actionId: ActionId.requestApproveRaise,
      text: `Approve and raise the budget by ${formatCents(cents)}`,
      value: encodeApproveRaise({ id, cents }),
    }),
    button({ actionId: ActionId.requestDeny, text: 'Deny', style: 'danger', value: id }),
  ];
}

/** The requester's copy: who was asked, Withdraw while open, the decision once decided. */
export function receiptMessage(
  request: ApprovalRequest,
  askedText: string,
  grant?: StandingGrant,
): SlackMessage {
  const text = `📨 Your request to ${requestSubject(request)} was sent to ${askedText}.`;
  const blocks: KnownBlock[] = [section(text)];
  if (request.status !== 'open') {
    blocks.push(contextLine(decisionLine(request, grant)));
    return message(blocks, `${text} ${decisionLine(request, grant)}`);
  }
  blocks.push(contextLine(`Expires ${expiry(request)} unless decided.`), {
    type: 'actions',
    elements: [button({ actionId: ActionId.requestWithdraw, text: 'Withdraw', value: request.id })],
  });
  return message(blocks, text);
}

/** One line per request, for /ps requests. */
export function requestLine(request: StoredRequest, perspective: 'mine' | 'waiting'): string {
  const who = perspective === 'waiting' ? `${mention(request.requesterId)} asks to ` : '';
  const unreadable = request.details === null ? ` ⚠️ ${UNREADABLE}` : '';
  return `• ${who}${requestSubject(request)} (expires ${expiry(request)})${unreadable}`;
}
