// Telling everyone around a request what became of it: every copy of the request shows the decision
// in place of its buttons, the requester is told in their DM, and after an approval the live card is
// posted in the thread of each copy and watched, like any create or power.
import type { WebClient } from '@slack/web-api';
import { paperspaceOwnerIdOf } from '../../domain/machine-owner.js';
import { describeError } from '../../errors/describe-error.js';
import { failureText } from '../../errors/user-message.js';
import { PaperspacePermissionError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { mention, type SlackMessage, slackDate } from '../../slack/block-kit/text.js';
import { postIn, tellPrivately, updateMessage } from '../../slack/posting.js';
import type { PostedRequest, ReadableRequest, StoredRequest } from '../../store/approval-requests.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import { machineCardMessage } from '../machines/blocks/machine-card.js';
import type { RecordedPowerIntent } from '../machines/power-intent.js';
import { watchOperation } from '../machines/superseded-cards.js';
import type { ApprovalsDeps } from './approvals-deps.js';
import {
  approverMessage,
  receiptMessage,
  requestSubject,
  type StandingGrant,
} from './blocks/request-messages.js';
import type { Decider } from './decider.js';
import type { ActedOn } from './request-action.js';

/** Shows the decision on every copy of the request, in place of its buttons. */
export async function refreshMessages(
  decider: { deps: Pick<ApprovalsDeps, 'logger'> & { store: Pick<Store, 'approvals'> }; web: WebClient },
  requestId: string,
  /** The standing grant an "Approve for N hours" just gave, said on every copy. */
  grant?: StandingGrant,
): Promise<void> {
  const { deps, web } = decider;
  const request = await deps.store.approvals.get(requestId);
  if (!request) return;
  if (request.details === null) {
    deps.logger.error(
      { requestId, problem: request.problem },
      'could not redraw a request that cannot be read',
    );
    return;
  }
  const asked = request.details.asked ?? 'the approvers';
  for (const posted of request.messages) {
    const message =
      posted.to === 'requester' ? receiptMessage(request, asked, grant) : approverMessage(request, grant);
    try {
      await updateMessage(web, posted, message);
    } catch (error) {
      deps.logger.warn({ error: describeError(error) }, 'could not update a copy of a request');
    }
  }
}

export async function tellRequester(
  decider: { web: WebClient; deps: Pick<ApprovalsDeps, 'pacer'> },
  request: Pick<StoredRequest, 'requesterId'>,
  text: string,
): Promise<void> {
  await tellPrivately(decider.web, { userId: request.requesterId }, plainMessage(text), decider.deps.pacer);
}

/** After the action ran: the copies redrawn, the live card in each copy's thread, the requester told. */
export async function announceApproval(
  decider: Decider,
  request: ReadableRequest,
  done: ActedOn,
  /** What "Approve for N hours" gave the requester, if it was that button. */
  grant: StandingGrant | undefined,
): Promise<void> {
  const { deps, user } = decider;
  await refreshMessages(decider, request.id, grant);
  const card = machineCardMessage(done.machine, done.notice ? { notice: done.notice } : {});
  const stored = await deps.store.approvals.get(request.id);
  const requester: SlackUser = { teamId: request.teamId, userId: request.requesterId };
  // The first copy's watch takes over from the machine's older watches (their cards are redrawn to say
  // so); the other copies follow the same operation, which must not end the first.
  let takesOver = true;
  for (const [index, posted] of (stored?.messages ?? []).entries()) {
    if (index === 0 && done.intent !== undefined) {
      // Its watch was stored before the call (request-intent.ts): it follows from here.
      if (await placeIntentCard(decider, posted, card, done, done.intent)) takesOver = false;
      continue;
    }
    const watcher = posted.to === 'requester' ? requester : user;
    const operation = takesOver ? { kind: request.kind, by: user.userId } : undefined;
    if (await postWatchedCard(decider, watcher, posted, card, done, operation)) takesOver = false;
  }
  const granted = grant
    ? ` You may start, stop or restart it without asking for ${grant.hours} hours, until ${slackDate(grant.until, '{date_short_pretty} at {time}')}.`
    : '';
  await tellRequester(
    decider,
    request,
    `✅ ${mention(user.userId)} approved your request to ${requestSubject(request)}.${granted}${assignedNote(request, done.machine)}`,
  );
}

/**
 * After the action failed. Paperspace refusing the approver's own key (not an administrator, or not
 * the owner, after all) leaves the request open for someone who can; anything else is the request's
 * outcome, told to both.
 */
export async function announceFailure(
  decider: Decider,
  request: ReadableRequest,
  error: unknown,
): Promise<void> {
  const { deps, user } = decider;
  const why = failureText(error, deps.logger);
  if (
    error instanceof PaperspacePermissionError &&
    (await deps.store.approvals.reopen(request.id, user.userId))
  ) {
    await decider.tell(
      plainMessage(
        `Paperspace refused your key too (${why}). The request stays open for someone who can approve it.`,
      ),
    );
    return;
  }
  await deps.store.approvals.settle(request.id, 'failed', why);
  await refreshMessages(decider, request.id);
  await tellRequester(
    decider,
    request,
    `⚠️ ${mention(user.userId)} approved your request to ${requestSubject(request)}, but it failed: ${why}`,
  );
  await decider.tell(plainMessage(`You approved, but the action failed: ${why}`));
}

/** After a denial: the copies redrawn, the requester told why when a reason was given. */
export async function announceDenial(
  decider: Decider,
  request: ReadableRequest,
  reason: string | null,
): Promise<void> {
  await refreshMessages(decider, request.id);
  const why = reason ? `: “${reason}”` : '.';
  await tellRequester(
    decider,
    request,
    `⛔ ${mention(decider.user.userId)} denied your request to ${requestSubject(request)}${why}`,
  );
}

/** A create on v1 cannot assign the machine to the requester: what they got instead. */
function assignedNote(request: ReadableRequest, machine: Machine): string {
  if (request.kind !== 'create' || paperspaceOwnerIdOf(machine) !== undefined) return '';
  return ' Paperspace v1 cannot assign a machine to someone else: it was created under the approver’s account, and you were given access to it. Here it is yours: its cost counts in your spend, and its alerts come to you.';
}

/**
 * The live card in the thread of the request's first copy, whose watch was stored as the request's
 * intent: placed there, or, if Slack would not take it, the watch still replies in that thread. True
 * when the watch follows the machine.
 */
async function placeIntentCard(
  decider: Decider,
  where: PostedRequest,
  card: SlackMessage,
  done: ActedOn,
  intent: RecordedPowerIntent,
): Promise<boolean> {
  const { deps, web } = decider;
  let ts: string | undefined;
  try {
    ts = (await postIn(web, { channel: where.channel, threadTs: where.ts }, card, deps.pacer)).ts;
  } catch (error) {
    deps.logger.warn({ error: describeError(error) }, 'could not post the card of an approved request');
  }
  const settled = await intent.settle({
    machine: done.machine,
    eventId: done.eventId ?? null,
    place: { channel: where.channel, ts, threadTs: where.ts },
  });
  return settled.kind === 'watching';
}

/**
 * The live card in the thread of one copy of the request, watched by the person who sees it. With
 * `operation`, the watch supersedes the machine's older watches, as any start, stop, restart or create
 * does. True when a watch was started.
 */
async function postWatchedCard(
  decider: Decider,
  watcher: SlackUser,
  where: PostedRequest,
  card: SlackMessage,
  done: ActedOn,
  operation: { kind: string; by: string } | undefined,
): Promise<boolean> {
  const { deps, web } = decider;
  try {
    const posted = await postIn(web, { channel: where.channel, threadTs: where.ts }, card, deps.pacer);
    if (done.targetState === undefined) return false;
    const watch = {
      user: watcher,
      targetState: done.targetState,
      channel: posted.channel,
      messageTs: posted.ts,
      threadTs: where.ts,
      initialState: done.machine.state,
      ...(done.eventId ? { eventId: done.eventId } : {}),
    };
    if (operation) {
      await watchOperation(deps, web, done.machine, { ...watch, operation: operation.kind }, operation.by);
    } else {
      await deps.watcher.watch({ ...watch, machineId: done.machine.id, machineName: done.machine.name });
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
