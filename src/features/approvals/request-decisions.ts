// Deciding a request: Approve, Deny, Withdraw and expiry. Each first moves the request out of 'open'
// in the store (one conditional UPDATE), so of two approvers, or two replicas, clicking at once only
// one acts; the other is told who was first. Approve then acts with the APPROVER's key: a create
// assigned to the requester, a start/stop/restart with the owner's key. The live card is posted in
// the thread of the request and of the requester's receipt, and watched, like any create or power.
// Every decision and its action is audited with both people.

import type { WebClient } from '@slack/web-api';
import { ownerIdOf } from '../../domain/machine-people.js';
import { learnRoleFromCreate } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import { failureText } from '../../errors/user-message.js';
import type { WaitableState } from '../../paperspace/constants.js';
import { PaperspacePermissionError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { mrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../slack/listener-deps.js';
import type { ApprovalRequest, Decision } from '../../store/approval-requests.js';
import type { SlackUser } from '../../store/slack-user.js';
import { readAccountKind } from '../machines/account-kind.js';
import { machineCardMessage } from '../machines/blocks/machine-card.js';
import { createdNotice, mention, powerRequestedNotice } from '../machines/blocks/machine-replies.js';
import { checkCreateParams, findTemplate } from '../machines/create-flow.js';
import { createMachineOperations, type PowerVerb } from '../machines/machine-operations.js';
import { watchOperation } from '../machines/superseded-cards.js';
import { approverMessage, decisionLine, receiptMessage, requestSubject } from './blocks/request-messages.js';

export interface Decider {
  deps: ListenerDeps;
  web: WebClient;
  user: SlackUser;
  /** Answers the person who clicked, privately. */
  tell: (message: SlackMessage) => Promise<void>;
}

const plain = (text: string): SlackMessage => ({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });

/** Why this person may not decide the request; undefined when they may. */
async function refusalOf(decider: Decider, request: ApprovalRequest): Promise<string | undefined> {
  if (request.requesterId === decider.user.userId) return 'You cannot approve or deny your own request.';
  const account = await decider.deps.vault.account(decider.user);
  if (!account) return 'Link your Paperspace key with `/ps login` first: an approval acts with your key.';
  if (request.kind !== 'create' && request.details.ownerUnknown !== true) {
    // Whoever holds the owner's Paperspace account decides, whichever Slack user they linked it from.
    const owner = request.ownerId
      ? mention(request.ownerId)
      : String(request.details.ownerName ?? request.details.ownerPaperspaceId ?? '');
    return account.userId === request.details.ownerPaperspaceId
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
async function claim(decider: Decider, request: ApprovalRequest, decision: Decision): Promise<boolean> {
  if (await decider.deps.store.approvals.decide(request.id, decision)) return true;
  const now = await decider.deps.store.approvals.get(request.id);
  if (now?.status === 'open') {
    await decider.tell(
      plain(`This request to ${requestSubject(request)} has expired: it can no longer be decided.`),
    );
  } else if (now) {
    await decider.tell(plain(`This request was already handled: ${decisionLine(now)}.`));
  }
  return false;
}

export async function approve(decider: Decider, requestId: string, grantHours?: number): Promise<void> {
  const { deps, user } = decider;
  const request = await deps.store.approvals.get(requestId);
  if (!request) return decider.tell(plain('This request no longer exists.'));
  const refusal = await refusalOf(decider, request);
  if (refusal) return decider.tell(plain(refusal));
  const client = await deps.clients.forUser(user);
  if (!client)
    return decider.tell(
      plain('Link your Paperspace key with `/ps login` first: an approval acts with your key.'),
    );
  if (!(await claim(decider, request, { status: 'approved', by: user.userId, at: deps.now() }))) return;

  const requester: SlackUser = { teamId: request.teamId, userId: request.requesterId };
  let result: ActedOn;
  try {
    result = await deps.audit.run(
      {
        user,
        action: `approval.${request.kind}`,
        ...(request.machineId ? { resourceId: request.machineId } : {}),
        note: `approved request ${request.id} of ${request.requesterId}`,
      },
      () => act(deps, { user, client }, request),
      (done) => done.machine.id,
    );
  } catch (error) {
    // Paperspace refusing the approver's own key (not an administrator, or not the owner, after all)
    // leaves the request open for someone who can; anything else is the request's outcome, told to both.
    if (error instanceof PaperspacePermissionError && request.kind === 'create') {
      await learnRoleFromCreate(deps, user, false);
    }
    if (
      error instanceof PaperspacePermissionError &&
      (await deps.store.approvals.reopen(request.id, user.userId))
    ) {
      await decider.tell(
        plain(
          `Paperspace refused your key too (${failureText(error, deps.logger)}). The request stays open for someone who can approve it.`,
        ),
      );
      return;
    }
    await deps.store.approvals.settle(request.id, 'failed', failureText(error, deps.logger));
    await refreshMessages(decider, request.id);
    await tellRequester(
      decider,
      requester,
      `⚠️ ${mention(user.userId)} approved your request to ${requestSubject(request)}, but it failed: ${failureText(error, deps.logger)}`,
    );
    await decider.tell(plain(`You approved, but the action failed: ${failureText(error, deps.logger)}`));
    return;
  }
  if (request.kind === 'create') await learnRoleFromCreate(deps, user, true);
  if (grantHours !== undefined && request.machineId) {
    await deps.store.approvals.grant({
      teamId: request.teamId,
      ownerId: user.userId,
      requesterId: request.requesterId,
      machineId: request.machineId,
      expiresAt: deps.now() + grantHours * 3_600_000,
    });
  }
  await refreshMessages(decider, request.id);
  const card = machineCardMessage(result.machine, result.notice ? { notice: result.notice } : {});
  const stored = await deps.store.approvals.get(request.id);
  // The first copy's watch takes over from the machine's older watches (their cards are redrawn to say
  // so); the other copies follow the same operation, which must not end the first.
  let takesOver = true;
  for (const posted of stored?.messages ?? []) {
    const watcher = posted.to === 'requester' ? requester : user;
    const operation = takesOver ? { kind: request.kind, by: user.userId } : undefined;
    if (await postWatchedCard(decider, watcher, posted, card, result, operation)) takesOver = false;
  }
  const granted = grantHours
    ? ` You may ${request.kind} it without asking for the next ${grantHours} hours.`
    : '';
  await tellRequester(
    decider,
    requester,
    `✅ ${mention(user.userId)} approved your request to ${requestSubject(request)}.${granted}${assignedNote(request, result.machine)}`,
  );
}

/** A create on v1 cannot assign the machine to the requester: what they got instead. */
function assignedNote(request: ApprovalRequest, machine: Machine): string {
  if (request.kind !== 'create' || ownerIdOf(machine) !== undefined) return '';
  return ' Paperspace v1 cannot assign a machine to someone else: it was created under the approver’s account, and you were added to it as an accessor.';
}

/** What an approved request did: the machine as it left it, where it is heading, and its event (v1). */
interface ActedOn {
  machine: Machine;
  targetState: WaitableState | undefined;
  eventId?: string | null;
  notice: string;
}

async function act(
  deps: ListenerDeps,
  approver: { user: SlackUser; client: NonNullable<Awaited<ReturnType<ListenerDeps['clients']['forUser']>>> },
  request: ApprovalRequest,
): Promise<ActedOn> {
  const operations = createMachineOperations(deps);
  if (request.kind === 'create') {
    const params = (request.details.params ?? {}) as Record<string, unknown>;
    const template = await findTemplate(approver.client, params.templateId);
    // The approver's account, as Paperspace lists it: a team, whose machines are assigned to a person.
    const { account } = await readAccountKind(approver.client);
    const checked = checkCreateParams(params, account, template);
    if (!checked.ok) {
      throw new Error(
        `the request no longer passes the checks (${checked.issues.map((i) => `${i.field} ${i.message}`).join('; ')})`,
      );
    }
    const outcome = await operations.create(approver, checked.value, template);
    return { ...outcome, notice: createdNotice(request.requesterId) };
  }
  const machine = await approver.client.machines.show(request.machineId ?? '');
  const outcome = await operations.power(approver, machine, request.kind as PowerVerb);
  // Sent moments ago by someone else (the owner clicking too): its own card follows the machine.
  if (outcome.kind !== 'requested') return { machine: outcome.machine, targetState: undefined, notice: '' };
  return {
    machine: outcome.machine,
    targetState: outcome.targetState,
    eventId: outcome.eventId,
    notice: powerRequestedNotice(request.kind as PowerVerb, request.requesterId),
  };
}

/**
 * The live card in the thread of one copy of the request, watched by the person who sees it. With
 * `operation`, the watch supersedes the machine's older watches, as any start, stop, restart or create
 * does. True when a watch was started.
 */
async function postWatchedCard(
  decider: Decider,
  watcher: SlackUser,
  where: { channel: string; ts: string },
  card: SlackMessage,
  result: ActedOn,
  operation: { kind: string; by: string } | undefined,
): Promise<boolean> {
  const { deps, web } = decider;
  try {
    const posted = await web.chat.postMessage({ channel: where.channel, thread_ts: where.ts, ...card });
    if (!posted.ts || result.targetState === undefined) return false;
    const watch = {
      user: watcher,
      targetState: result.targetState,
      channel: posted.channel ?? where.channel,
      messageTs: posted.ts,
      threadTs: where.ts,
      initialState: result.machine.state,
      ...(result.eventId ? { eventId: result.eventId } : {}),
    };
    if (operation) {
      await watchOperation(deps, web, result.machine, { ...watch, operation: operation.kind }, operation.by);
    } else {
      await deps.watcher.watch({ ...watch, machineId: result.machine.id, machineName: result.machine.name });
    }
    return true;
  } catch (error) {
    deps.logger.warn(
      { error: describeError(error) },
      'could not post or watch the card of an approved request',
    );
    return false;
  }
}

export async function deny(decider: Decider, requestId: string, reason: string | null): Promise<void> {
  const { deps, user } = decider;
  const request = await deps.store.approvals.get(requestId);
  if (!request) return decider.tell(plain('This request no longer exists.'));
  const refusal = await refusalOf(decider, request);
  if (refusal) return decider.tell(plain(refusal));
  const decided = await deps.audit.run(
    { user, action: 'approval.deny', resourceId: request.id, note: `request of ${request.requesterId}` },
    () => claim(decider, request, { status: 'denied', by: user.userId, at: deps.now(), reason }),
  );
  if (!decided) return;
  await refreshMessages(decider, request.id);
  const why = reason ? `: “${reason}”` : '.';
  await tellRequester(
    decider,
    { teamId: request.teamId, userId: request.requesterId },
    `⛔ ${mention(user.userId)} denied your request to ${requestSubject(request)}${why}`,
  );
}

export async function withdraw(decider: Decider, requestId: string): Promise<void> {
  const { deps, user } = decider;
  const request = await deps.store.approvals.get(requestId);
  if (!request) return decider.tell(plain('This request no longer exists.'));
  if (request.requesterId !== user.userId)
    return decider.tell(plain('Only the person who asked can withdraw a request.'));
  const decided = await deps.audit.run({ user, action: 'approval.withdraw', resourceId: request.id }, () =>
    claim(decider, request, { status: 'withdrawn', by: user.userId, at: deps.now() }),
  );
  if (decided) await refreshMessages(decider, request.id);
}

/** Shows the decision on every copy of the request, in place of its buttons. */
export async function refreshMessages(
  decider: { deps: Pick<ListenerDeps, 'store' | 'logger'>; web: WebClient },
  requestId: string,
): Promise<void> {
  const request = await decider.deps.store.approvals.get(requestId);
  if (!request) return;
  const asked = typeof request.details.asked === 'string' ? request.details.asked : 'the approvers';
  for (const posted of request.messages) {
    const message = posted.to === 'requester' ? receiptMessage(request, asked) : approverMessage(request);
    try {
      await decider.web.chat.update({ channel: posted.channel, ts: posted.ts, ...message });
    } catch (error) {
      decider.deps.logger.warn({ error: describeError(error) }, 'could not update a copy of a request');
    }
  }
}

export async function tellRequester(
  decider: { web: WebClient },
  requester: SlackUser,
  text: string,
): Promise<void> {
  await decider.web.chat.postMessage({ channel: requester.userId, ...plain(text) });
}
