// The Deny form's submission: the modal closes at once, then the request is denied (if no one decided
// it meanwhile) and the requester is told, with the reason when one was given.
import { readString } from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';
import { inRequest, viewInteraction } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { ApprovalsDeps } from '../approvals-deps.js';
import { denyModalRequestId, denyReasonField } from '../blocks/deny-modal.js';
import { deny } from '../request-decisions.js';
import type { RequestSettled } from '../request-settled.js';

export function registerDenySubmission(
  router: ListenerRouter,
  deps: ApprovalsDeps,
  settled: RequestSettled,
): void {
  router.view(CallbackId.denyRequest, async ({ ack, body, client, context }) => {
    await ack();
    const interaction = viewInteraction(deps, { body, client, context }, undefined);
    try {
      const requestId = denyModalRequestId(body.view.private_metadata);
      const reason = readString(body.view.state.values, denyReasonField) ?? null;
      await deny(
        {
          deps: inRequest(deps, interaction),
          web: client,
          user: interaction.user,
          tell: interaction.replyPrivately,
          settled,
        },
        requestId,
        reason,
      );
    } catch (error) {
      await interaction.replyFailure(error);
    }
  });
}
