// A member's start or create the budget gate stopped (machines/budget-gate.ts) becomes a request to
// the team's administrators, in the approvals channel or, with none set, in each linked
// administrator's DM: Approve once, Approve and raise the budget, Deny. An approved start runs with
// the REQUESTER's own key (request-action.ts); an approved create, like every create request, with
// the approver's, as only administrators create machines.
import type { Machine } from '../../paperspace/schemas.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { mention, type SlackMessage } from '../../slack/block-kit/text.js';
import type { OverBudget } from '../../store/approval-request-details.js';
import { OverBudgetError } from '../machines/budget-gate.js';
import type { CreateRequester } from '../machines/machines-wiring.js';
import { createApprovers } from './approvers.js';
import { openCreateRequest, openRequestTo, type Requester } from './request-delivery.js';

/** What the request keeps of the spent budget. */
function overBudgetOf(error: OverBudgetError): OverBudget {
  const { budget, spentCents } = error.spent;
  return {
    budget: budget.subject === 'team' ? 'team' : budget.subject.userId,
    amountCents: budget.amountCents,
    spentCents,
  };
}

const BUDGET_STOP = (error: OverBudgetError) => `💸 ${error.message}`;

/**
 * After the gate stopped a member's start: the start is sent to the administrators as a request.
 * False: the error was no such stop, and the caller reports it as usual.
 */
export async function requestStartOverBudget(
  error: unknown,
  requester: Requester,
  machine: Pick<Machine, 'id' | 'name'>,
): Promise<boolean> {
  if (!(error instanceof OverBudgetError)) return false;
  const { deps, user } = requester;
  await requester.tell(plainMessage(BUDGET_STOP(error)));
  const paperspaceTeamId = error.spent.budget.paperspaceTeamId;
  const settings = await deps.store.approvals.settingsOf(user.teamId, paperspaceTeamId);
  const what = {
    kind: 'start',
    paperspaceTeamId,
    machineId: machine.id,
    machineName: machine.name,
    ownerId: null,
  } as const;
  const lifetimeMs = settings?.lifetimeMs ?? null;
  if (settings?.channel) {
    await openRequestTo(requester, [settings.channel], `<#${settings.channel}>`, lifetimeMs, {
      ...what,
      details: { overBudget: overBudgetOf(error) },
    });
    return true;
  }
  const { approvers } = await createApprovers(deps, requester, paperspaceTeamId);
  if (approvers.length === 0) {
    await requester.tell(plainMessage(NO_ADMINISTRATOR));
    return true;
  }
  const targets = approvers.map((person) => person.userId);
  await openRequestTo(requester, targets, targets.map(mention).join(', '), lifetimeMs, {
    ...what,
    details: { overBudget: overBudgetOf(error), approvers: targets },
  });
  return true;
}

/** After the gate stopped a member's create: the create goes to the administrators as a request. */
export async function requestCreateOverBudget(
  error: unknown,
  params: Record<string, unknown>,
  requester: CreateRequester & { tell: (message: SlackMessage) => Promise<void> },
): Promise<boolean> {
  if (!(error instanceof OverBudgetError)) return false;
  const account = await requester.deps.vault.account(requester.user);
  if (!account) return false;
  await requester.tell(plainMessage(BUDGET_STOP(error)));
  await openCreateRequest(requester, account, params, undefined, overBudgetOf(error));
  return true;
}

const NO_ADMINISTRATOR =
  "None of your team's administrators has linked a key here, so there is no one I can ask. Ask an administrator to run `/ps login`, or to set an approvals channel with `/ps approvals #channel`.";
