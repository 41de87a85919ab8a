// The destroy confirmation's submission. The typed name must be the machine's name; otherwise the
// field says so and nothing is destroyed. Then the destroy goes through the audit trail, the
// conversation the modal came from hears who destroyed what, and the card (if any) loses its buttons.

import { describeError } from '../../../errors/describe-error.js';
import { CallbackId } from '../../../slack/ids.js';
import { announce, withPrivateCopy } from '../../../slack/posting.js';
import type { ListenerRouter } from '../../../slack/router.js';
import {
  DestroyMachineFields,
  destroyConfirmationError,
  readDestroyMachineSubmission,
} from '../blocks/destroy-machine-modal.js';
import { destroyedCard, destroyedMessage } from '../blocks/machine-replies.js';
import { createMachineOperations } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';
import { machineOf, readSubmission } from './machine-submission.js';

export function registerDestroySubmission(router: ListenerRouter, deps: MachinesDeps): void {
  router.view(CallbackId.destroyMachine, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const machine = machineOf(submission.metadata);
    const { typedName, releasePublicIp } = readDestroyMachineSubmission(submission.values);
    const problem = destroyConfirmationError(typedName, machine.name);
    if (problem !== undefined) {
      await ack({
        response_action: 'errors',
        errors: { [DestroyMachineFields.confirmName.blockId]: problem },
      });
      return;
    }
    await ack();

    const { user, metadata } = submission;
    const paperspace = await submission.userClient();
    if (!paperspace) return;
    try {
      await createMachineOperations(deps).destroy({ user, client: paperspace }, machine.id, {
        releasePublicIp,
      });
    } catch (error) {
      await submission.tellFailure(error);
      return;
    }
    // The machine is gone: from here on Slack's refusals change where the news goes, never what it says.
    await deps.store.machineOwners
      .forget(user.teamId, machine.id)
      .catch((error: unknown) =>
        deps.logger.warn({ error: describeError(error) }, 'could not forget a destroyed machine’s owner'),
      );
    const news = destroyedMessage(machine.name, user.userId);
    const { notice } = await announce(
      client,
      { channel: metadata.channelId, userId: user.userId, threadTs: metadata.threadTs },
      news,
      'the notice',
      deps.pacer,
    );
    if (notice !== undefined) await submission.tell(withPrivateCopy(notice, news));
    if (metadata.channelId && metadata.messageTs) {
      await client.chat
        .update({
          channel: metadata.channelId,
          ts: metadata.messageTs,
          ...destroyedCard(machine.name, user.userId),
        })
        .catch((error: unknown) => {
          // The card was deleted or is too old to edit: the notice above already says what happened.
          submission.deps.logger.warn({ error: describeError(error) }, 'could not mark the card destroyed');
        });
    }
  });
}
