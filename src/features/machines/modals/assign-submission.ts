// The Assign form's submission: the chosen teammate becomes the machine's owner, if the submitter
// administers the machine's team (machine-ownership.ts checks it with their own key).

import { plainMessage } from '../../../slack/block-kit/messages.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { AssignMachineFields as F, readAssignMachineSubmission } from '../blocks/assign-machine-modal.js';
import { assignMachine } from '../machine-ownership.js';
import type { MachinesDeps } from '../machines-deps.js';
import { machineOf, readSubmission } from './machine-submission.js';

export function registerAssignSubmission(router: ListenerRouter, deps: MachinesDeps): void {
  router.view(CallbackId.assignMachine, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const machine = machineOf(submission.metadata);
    const assignee = readAssignMachineSubmission(submission.values);
    if (assignee === undefined) {
      await ack({
        response_action: 'errors',
        errors: { [F.owner.blockId]: 'Choose the teammate to own it.' },
      });
      return;
    }
    await ack();
    const paperspace = await submission.userClient();
    if (!paperspace) return;
    try {
      const found = await paperspace.machines.show(machine.id);
      const said = await assignMachine(
        deps,
        { user: submission.user, client: paperspace, web: submission.web },
        found,
        { teamId: submission.user.teamId, userId: assignee },
      );
      await submission.tell(plainMessage(said));
    } catch (error) {
      await submission.tellFailure(error);
    }
  });
}
