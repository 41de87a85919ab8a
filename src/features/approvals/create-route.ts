// After Paperspace refused a team member's create (only administrators create machines): the member
// is offered to send it as a request to the team's administrators, instead of a bare refusal.
import type { SlackMessage } from '../../slack/block-kit/text.js';
import { MemberCannotCreateError } from '../machines/create-flow.js';
import { createOfferMessage } from './blocks/request-messages.js';

/** True when the refusal was answered with the offer; false: the caller reports the error as usual. */
export async function offerCreateRequest(
  error: unknown,
  params: Record<string, unknown>,
  tell: (message: SlackMessage) => Promise<void>,
): Promise<boolean> {
  if (!(error instanceof MemberCannotCreateError)) return false;
  await tell(createOfferMessage(params));
  return true;
}
