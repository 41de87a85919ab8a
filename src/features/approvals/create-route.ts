// After Paperspace refused a team member's create (only administrators create machines): inline, the
// member is offered to send it as a request to the team's administrators; from the form, the form is
// the request and is sent at once, and the modal says where it went.
import type { SlackMessage } from '../../slack/block-kit/text.js';
import { MemberCannotCreateError } from '../machines/create-flow.js';
import type { CreateRequester } from '../machines/machines-wiring.js';
import { createOfferMessage } from './blocks/request-messages.js';
import { requestCreateOverBudget } from './budget-route.js';
import { openCreateRequest } from './request-delivery.js';

/**
 * True when the refusal was answered with the offer, or a stop by the budget gate with the request to
 * the administrators; false: the caller reports the error as usual.
 */
export async function offerCreateRequest(
  error: unknown,
  params: Record<string, unknown>,
  requester: CreateRequester & { tell: (message: SlackMessage) => Promise<void> },
): Promise<boolean> {
  const { tell } = requester;
  if (await requestCreateOverBudget(error, params, requester)) return true;
  if (!(error instanceof MemberCannotCreateError)) return false;
  await tell(createOfferMessage(params));
  return true;
}

/** What the modal says after a member's refused create was sent as a request; undefined: no such refusal. */
export async function requestCreateInstead(
  error: unknown,
  params: Record<string, unknown>,
  requester: CreateRequester,
): Promise<string | undefined> {
  const told: string[] = [];
  const tell = async (message: SlackMessage) => void told.push(message.text ?? '');
  if (await requestCreateOverBudget(error, params, { ...requester, tell })) return told.join('\n\n');
  if (!(error instanceof MemberCannotCreateError)) return undefined;
  const account = await requester.deps.vault.account(requester.user);
  if (!account) return undefined;
  // Paperspace has just shown this person is not an administrator: they are not asked to approve.
  await requester.deps.store.approvals.noteRole(
    requester.user.teamId,
    account.userId,
    false,
    requester.deps.now(),
  );
  await openCreateRequest({ ...requester, tell }, account, params);
  return [ONLY_ADMINISTRATORS, ...told].join('\n\n');
}

const ONLY_ADMINISTRATORS =
  "🔒 Only your team's administrators can create machines, so I sent this form to them as a request instead.";
