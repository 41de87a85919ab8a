// The Settings form's submission: checked with the client's update schema, cross-field rules included
// (errors on their fields in the ack), then applied through the audit trail. The ack turns the form
// into "Saving…"; on success the modal says so, the submitter gets the refreshed card privately and
// the card the form was opened from is refreshed in place; when Paperspace refuses, the form comes back
// with what was typed and the reason under its field.

import { describeError } from '../../../errors/describe-error.js';
import { failureText } from '../../../errors/user-message.js';
import { updateMachineParamsSchema } from '../../../paperspace/request-params/machine-params.js';
import { toRequestIssues } from '../../../paperspace/request-params/parse-request.js';
import { fieldErrors } from '../../../slack/block-kit/field-errors.js';
import { issueProblems } from '../../../slack/block-kit/form-problems.js';
import type { SubmittedView } from '../../../slack/block-kit/form-refill.js';
import { statusModal } from '../../../slack/block-kit/status-modal.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { putFormBack } from '../../../slack/form-refusal.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { machineCardMessage } from '../blocks/machine-card.js';
import { updatedMessage, updatedUnreadMessage } from '../blocks/machine-replies.js';
import { readUpdateMachineSubmission, updateMachineFieldBlockIds } from '../blocks/update-machine-modal.js';
import { createMachineOperations, type UpdateOutcome } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';
import { machineOf, readSubmission } from './machine-submission.js';

const TITLE = 'Machine settings';

export function registerUpdateSubmission(router: ListenerRouter, deps: MachinesDeps): void {
  router.view(CallbackId.updateMachine, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const machine = machineOf(submission.metadata);
    const parsed = updateMachineParamsSchema.safeParse(readUpdateMachineSubmission(submission.values));
    if (!parsed.success) {
      const errors = fieldErrors(
        issueProblems(toRequestIssues(parsed.error)),
        updateMachineFieldBlockIds,
        submission.values,
      );
      await ack({ response_action: 'errors', errors });
      return;
    }
    const name = escapeMrkdwn(machine.name);
    await ack({
      response_action: 'update',
      view: statusModal({ callbackId: CallbackId.updateMachine, title: TITLE, text: `⏳ Saving *${name}*…` }),
    });

    const paperspace = await submission.userClient();
    if (!paperspace) return;
    const view = body.view as unknown as SubmittedView & { id: string };
    let updated: UpdateOutcome;
    try {
      updated = await createMachineOperations(deps).update(
        { user: submission.user, client: paperspace },
        machine.id,
        parsed.data,
      );
    } catch (error) {
      await putFormBack({
        client,
        view,
        error,
        fieldBlockIds: updateMachineFieldBlockIds,
        logger: deps.logger,
        tell: submission.tell,
      });
      return;
    }
    await client.views
      .update({
        view_id: view.id,
        view: statusModal({ title: TITLE, text: `✅ Saved the settings of *${name}*.` }),
      })
      .catch((error: unknown) => deps.logger.info({ err: error }, 'settings form closed before its outcome'));
    if (updated.machine === undefined) {
      const reason = failureText(updated.rereadError, deps.logger);
      await submission.tell(updatedUnreadMessage(parsed.data.machineName ?? machine.name, [], reason));
      return;
    }
    // The machine has changed: a card Slack will not refresh (deleted, too old) is only logged, never
    // reported to the person as a failed change.
    const { channelId, messageTs } = submission.metadata;
    if (channelId && messageTs) {
      await client.chat
        .update({ channel: channelId, ts: messageTs, ...machineCardMessage(updated.machine) })
        .catch((error: unknown) => {
          submission.deps.logger.warn(
            { error: describeError(error) },
            'could not refresh the card after an update',
          );
        });
    }
    // The form sends every field, so naming them would list unchanged ones too.
    await submission.tell(updatedMessage(updated.machine, []));
  });
}
