// The Settings form's submission: checked with the client's update schema (errors on their fields in
// the ack), then applied through the audit trail. The submitter gets the refreshed card privately, and
// the card the form was opened from is refreshed in place.
import { describeError } from '../../../errors/describe-error.js';
import { toRequestIssues, updateMachineParamsSchema } from '../../../paperspace/requests.js';
import type { Machine } from '../../../paperspace/schemas.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { machineCardMessage } from '../blocks/machine-card.js';
import { updatedMessage } from '../blocks/machine-replies.js';
import { readUpdateMachineSubmission, updateMachineFieldBlockIds } from '../blocks/update-machine-modal.js';
import { createMachineOperations } from '../machine-operations.js';
import { fieldErrors, machineOf, readSubmission } from './machine-submission.js';

export function registerUpdateSubmission(router: ListenerRouter, deps: ListenerDeps): void {
  router.view(CallbackId.updateMachine, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const machine = machineOf(submission.metadata);
    const parsed = updateMachineParamsSchema.safeParse(readUpdateMachineSubmission(submission.values));
    if (!parsed.success) {
      const errors = fieldErrors(
        toRequestIssues(parsed.error),
        updateMachineFieldBlockIds,
        submission.values,
      );
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack();

    const paperspace = await submission.userClient();
    if (!paperspace) return;
    let updated: Machine;
    try {
      updated = await createMachineOperations(deps).update(
        { user: submission.user, client: paperspace },
        machine.id,
        parsed.data,
      );
    } catch (error) {
      await submission.tellFailure(error);
      return;
    }
    // The machine has changed: a card Slack will not refresh (deleted, too old) is only logged, never
    // reported to the person as a failed change.
    const { channelId, messageTs } = submission.metadata;
    if (channelId && messageTs) {
      await client.chat
        .update({ channel: channelId, ts: messageTs, ...machineCardMessage(updated) })
        .catch((error: unknown) => {
          submission.deps.logger.warn(
            { error: describeError(error) },
            'could not refresh the card after an update',
          );
        });
    }
    // The form sends every field, so naming them would list unchanged ones too.
    await submission.tell(updatedMessage(updated, []));
  });
}
