// Deciding a request: Approve, Deny and Withdraw, each in the same steps. `claim` first moves the
// request out of 'open' in the store (one conditional UPDATE), so of two approvers, or two replicas,
// clicking at once only one goes on; the other is told who was first. Approve then `act`s with the
// APPROVER's key (request-action.ts), and every decision is `announce`d to the people around the
// request (request-announcements.ts). Every decision and its action is audited with both people.
//
//   Approve click -> load -> approverOf -> claim -> act (a power's watch stored first) -> (raise the budget)
//                 -> announceApproval | announceFailure
//   Deny form     -> load -> refusalOf  -> claim (audited) -> announceDenial
//   Withdraw      -> load -> (the requester only) -> claim (audited) -> refreshMessages

import { plainMessage } from '../../slack/block-kit/messages.js';
import { mention } from '../../slack/block-kit/text.js';
import type { Decision, ReadableRequest } from '../../store/approval-requests.js';
import type { Actor } from '../machines/machine-operations.js';
import {
  decisionLine,
  requestSubject,
  type StandingGrant,
  unreadableRequestMessage,
} from './blocks/request-messages.js';
import { budgetRefusal, raiseBudget } from './budget-decisions.js';
import type { Decider } from './decider.js';
import { act } from './request-action.js';
import {
  announceApproval,
  announceDenial,
  announceFailure,
  refreshMessages,
} from './request-announcements.js';
import { firstCopyIntent } from './request-intent.js';
import { type RequestEnd, tellWaiting } from './request-settled.js';

const LINK_FIRST = 'Link your Paperspace key with `/ps login` first: an approval acts with your key.';

/** What an approval gives beyond the request: a standing grant (hours), or a raise of a spent budget (cents). */
export interface ApprovalExtra {
  grantHours?: number;
  raiseCents?: number;
}

export async function approve(decider: Decider, requestId: string, extra: ApprovalExtra = {}): Promise<void> {
  const { grantHours, raiseCents } = extra;
  const request = await load(decider, requestId);
  const approver = request && (await approverOf(decider, request));
  if (!request || !approver) return;
  const decision = { status: 'approved', by: approver.user.userId, at: decider.deps.now() } as const;
  if (!(await claim(decider, request, decision))) return;
  const acted = await act(decider.deps, approver, request, firstCopyIntent(decider, request));
  if (!acted.ok) {
    await announceFailure(decider, request, acted.error);
    // A refusal of the approver's own key gives the request back to the others: it has not ended.
    const after = await decider.deps.store.approvals.get(request.id);
    if (after?.status === 'failed') {
      await ended(decider, request, {
        status: 'failed',
        by: approver.user.userId,
        reason: after.reason ?? '',
      });
    }
    return;
  }
  const grant = grantHours === undefined ? undefined : await grantFor(decider, request, grantHours);
  if (raiseCents !== undefined) await raiseBudget(decider, request, raiseCents);
  await announceApproval(decider, request, acted.done, grant);
  await ended(decider, request, {
    status: 'approved',
    by: approver.user.userId,
    machine: acted.done.machine,
  });
}

export async function deny(decider: Decider, requestId: string, reason: string | null): Promise<void> {
  const { deps, user } = decider;
  const request = await load(decider, requestId);
  if (!request) return;
  const refusal = await refusalOf(decider, request);
  if (refusal) return decider.tell(plainMessage(refusal));
  const decided = await deps.audit.run(
    { user, action: 'approval.deny', resourceId: request.id, note: `request of ${request.requesterId}` },
    () => claim(decider, request, { status: 'denied', by: user.userId, at: deps.now(), reason }),
  );
  if (!decided) return;
  await announceDenial(decider, request, reason);
  await ended(decider, request, { status: 'denied', by: user.userId, reason });
}

export async function withdraw(decider: Decider, requestId: string): Promise<void> {
  const { deps, user } = decider;
  const request = await load(decider, requestId);
  if (!request) return;
  if (request.requesterId !== user.userId)
    return decider.tell(plainMessage('Only the person who asked can withdraw a request.'));
  const decided = await deps.audit.run({ user, action: 'approval.withdraw', resourceId: request.id }, () =>
    claim(decider, request, { status: 'withdrawn', by: user.userId, at: deps.now() }),
  );
  if (!decided) return;
  await refreshMessages(decider, request.id);
  await ended(decider, request, { status: 'withdrawn', by: user.userId });
}

/** Once the people around it were told: whatever waits on the request beyond them. */
function ended(decider: Decider, request: ReadableRequest, end: RequestEnd): Promise<void> {
  return tellWaiting(
    { settled: decider.settled, web: decider.web, logger: decider.deps.logger },
    request,
    end,
  );
}

/** The request clicked on; undefined, and the clicker told why, when it is gone or cannot be read. */
export async function load(decider: Decider, requestId: string): Promise<ReadableRequest | undefined> {
  const request = await decider.deps.store.approvals.get(requestId);
  if (!request) {
    await decider.tell(plainMessage('This request no longer exists.'));
    return undefined;
  }
  if (request.details === null) {
    decider.deps.logger.error({ requestId, problem: request.problem }, 'an approval request cannot be read');
    await decider.tell(unreadableRequestMessage(request));
    return undefined;
  }
  return request;
}

/** The approver with their own client; undefined, and they told why, when they may not approve. */
async function approverOf(decider: Decider, request: ReadableRequest): Promise<Actor | undefined> {
  const refusal = await refusalOf(decider, request);
  if (refusal) {
    await decider.tell(plainMessage(refusal));
    return undefined;
  }
  const client = await decider.deps.clients.forUser(decider.user);
  if (!client) {
    await decider.tell(plainMessage(LINK_FIRST));
    return undefined;
  }
  return { user: decider.user, client };
}

/** Why this person may not decide the request; undefined when they may. */
async function refusalOf(decider: Decider, request: ReadableRequest): Promise<string | undefined> {
  if (request.requesterId === decider.user.userId) return 'You cannot approve or deny your own request.';
  const account = await decider.deps.vault.account(decider.user);
  if (!account) return LINK_FIRST;
  if (request.details.overBudget !== undefined) return budgetRefusal(decider, request, account);
  if (request.kind !== 'create' && request.details.ownerUnknown !== true) {
    // Whoever holds the owner's Paperspace account decides, whichever Slack user they linked it from.
    const { ownerName, ownerPaperspaceId } = request.details;
    const owner = request.ownerId ? mention(request.ownerId) : (ownerName ?? ownerPaperspaceId ?? '');
    // On v1 the owner is the Slack person the bot recorded, who may not have linked a key as it was.
    return account.userId === ownerPaperspaceId || request.ownerId === decider.user.userId
      ? undefined
      : `Only the owner of ${request.machineName ?? 'the machine'}, ${owner}, can decide this request.`;
  }
  // A create, or a power request whose owner Paperspace does not name (v1): any teammate may try, and
  // Paperspace judges their key; a refusal gives the request back to the others.
  return account.teamId === request.paperspaceTeamId
    ? undefined
    : 'Only an administrator of the requester’s Paperspace team can decide this request.';
}

/** Moves the request out of 'open'; false (and the clicker told why) when someone else was first. */
async function claim(decider: Decider, request: ReadableRequest, decision: Decision): Promise<boolean> {
  if (await decider.deps.store.approvals.decide(request.id, decision)) return true;
  const now = await decider.deps.store.approvals.get(request.id);
  if (now?.status === 'open') {
    await decider.tell(
      plainMessage(`This request to ${requestSubject(request)} has expired: it can no longer be decided.`),
    );
  } else if (now) {
    await decider.tell(plainMessage(`This request was already handled: ${decisionLine(now)}.`));
  }
  return false;
}

/** "Approve for N hours": the requester may power the machine with the approver's key until then. */
async function grantFor(
  decider: Decider,
  request: ReadableRequest,
  hours: number,
): Promise<StandingGrant | undefined> {
  const { deps, user } = decider;
  if (!request.machineId) return undefined;
  const until = deps.now() + hours * 3_600_000;
  await deps.store.approvals.grant({
    teamId: request.teamId,
    ownerId: user.userId,
    requesterId: request.requesterId,
    machineId: request.machineId,
    expiresAt: until,
  });
  return { hours, until };
}
