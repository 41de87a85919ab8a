// What an approval does, once claimed: the create (assigned to the requester) or the start, stop or
// restart, with the APPROVER's key (a start past a spent budget: with the REQUESTER's own), audited with both people. Its outcome is returned, never thrown:
// a failure is the request's outcome too, announced to both (request-announcements.ts).

import { learnRoleFromCreate } from '../../domain/team-role.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { WaitableState } from '../../paperspace/constants.js';
import { PaperspacePermissionError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import { mention } from '../../slack/block-kit/text.js';
import type { CreateRequest, PowerRequest, ReadableRequest } from '../../store/approval-requests.js';
import { readAccountKind } from '../machines/account-kind.js';
import { createdNotice, powerRequestedNotice } from '../machines/blocks/machine-replies.js';
import { checkCreateParams, findTemplate } from '../machines/create-flow.js';
import { type Actor, createMachineOperations, type PowerVerb } from '../machines/machine-operations.js';
import { recordCreatedOwner } from '../machines/machine-ownership.js';
import type { RecordedPowerIntent } from '../machines/power-intent.js';
import { approvedRequestNote } from './approval-audit.js';
import type { ApprovalsDeps } from './approvals-deps.js';

/** What an approved request did: the machine as it left it, where it is heading, and its event (v1). */
export interface ActedOn {
  machine: Machine;
  targetState: WaitableState | undefined;
  eventId?: string | null;
  notice: string;
  /** The watch of a start, stop or restart, stored before the call: it follows once its card is placed. */
  intent?: RecordedPowerIntent;
}

/** The intent of an approved power request, made once its machine is read (none: unwatched). */
export type IntentFor = (machine: Machine, verb: PowerVerb) => RecordedPowerIntent | undefined;

export type Acted = { ok: true; done: ActedOn } | { ok: false; error: unknown };

/** Runs the approved request with the approver's key, audited; what Paperspace said of their role is kept. */
export async function act(
  deps: ApprovalsDeps,
  approver: Actor,
  request: ReadableRequest,
  intentFor?: IntentFor,
): Promise<Acted> {
  let done: ActedOn;
  try {
    done = await deps.audit.run(
      {
        user: approver.user,
        action: `approval.${request.kind}`,
        ...(request.machineId ? { resourceId: request.machineId } : {}),
        note: approvedRequestNote(request),
      },
      () =>
        request.kind === 'create'
          ? create(deps, approver, request)
          : power(deps, approver, request, intentFor),
      (acted) => acted.machine.id,
    );
  } catch (error) {
    // A refused create shows the approver is no administrator after all.
    if (error instanceof PaperspacePermissionError && request.kind === 'create') {
      await learnRoleFromCreate(deps, approver.user, false);
    }
    return { ok: false, error };
  }
  if (request.kind === 'create') await learnRoleFromCreate(deps, approver.user, true);
  return { ok: true, done };
}

async function create(deps: ApprovalsDeps, approver: Actor, request: CreateRequest): Promise<ActedOn> {
  const { params } = request.details;
  const template = await findTemplate(approver.client, params.templateId);
  // The approver's account, as Paperspace lists it: a team, whose machines are assigned to a person.
  const { account } = await readAccountKind(approver.client);
  const checked = checkCreateParams(params, account, approver.client.dialect, template);
  if (!checked.ok) {
    throw new Error(
      `the request no longer passes the checks (${checked.issues.map((i) => `${i.field} ${i.message}`).join('; ')})`,
    );
  }
  const outcome = await createMachineOperations(deps).create(approver, checked.value, template);
  // Made for the requester: it is theirs, not the approver's who clicked.
  await recordCreatedOwner(
    deps,
    outcome.machine.id,
    { teamId: request.teamId, userId: request.requesterId },
    { basis: 'requested', setBy: approver.user.userId },
  );
  return { ...outcome, notice: createdNotice(request.requesterId, outcome.targetState !== 'off') };
}

async function power(
  deps: ApprovalsDeps,
  approver: Actor,
  request: PowerRequest,
  intentFor: IntentFor | undefined,
): Promise<ActedOn> {
  // Past a spent budget the start is the requester's own, which only the budget held back.
  const actor = request.details.overBudget ? await requesterOf(deps, request) : approver;
  const machine = await actor.client.machines.show(request.machineId ?? '');
  const intent = intentFor?.(machine, request.kind);
  const outcome = await createMachineOperations(deps).power(actor, machine, request.kind, intent?.hooks);
  // Sent moments ago by someone else (the owner clicking too): its own card follows the machine.
  if (outcome.kind !== 'requested') return { machine: outcome.machine, targetState: undefined, notice: '' };
  return {
    machine: outcome.machine,
    targetState: outcome.targetState,
    eventId: outcome.eventId,
    notice: powerRequestedNotice(request.kind, request.requesterId),
    ...(intent === undefined ? {} : { intent }),
  };
}

/** The requester with their own key, for a start approved past their budget. */
async function requesterOf(deps: ApprovalsDeps, request: PowerRequest): Promise<Actor> {
  const user = { teamId: request.teamId, userId: request.requesterId };
  const client = await deps.clients.forUser(user);
  if (!client) {
    throw new UserFacingError(
      `${mention(request.requesterId)} has no linked Paperspace key any more, and an approved start runs with theirs.`,
    );
  }
  return { user, client };
}
