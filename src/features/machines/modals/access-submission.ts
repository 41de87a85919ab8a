// The Access form's submission: exactly one person (a Slack user, mapped to their Paperspace user
// through their linked key, or a Paperspace user id) and grant or revoke. Everything is checked before
// the ack, without Paperspace (the vault is local); the change then goes through the audit trail.

import { CallbackId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { KeyVault } from '../../../vault/key-vault.js';
import { type AccessTarget, resolveAccessTarget } from '../access-target.js';
import {
  MachineAccessFields as F,
  type MachineAccessSubmission,
  readMachineAccessSubmission,
} from '../blocks/machine-access-modal.js';
import { accessChangedMessage } from '../blocks/machine-replies.js';
import { createMachineOperations } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';
import { machineOf, readSubmission } from './machine-submission.js';

type CheckedAccessForm =
  | { ok: true; target: Extract<AccessTarget, { ok: true }>; enableAccess: boolean }
  | { ok: false; errors: Record<string, string> };

async function checkForm(
  vault: KeyVault,
  teamId: string,
  form: MachineAccessSubmission,
): Promise<CheckedAccessForm> {
  const { slackUserId, paperspaceUserId, enableAccess } = form;
  const errors: Record<string, string> = {};
  if (enableAccess === undefined) errors[F.change.blockId] = 'Choose grant or revoke.';
  if (slackUserId === undefined && paperspaceUserId === undefined) {
    errors[F.slackUser.blockId] = 'Choose a person, or give a Paperspace user id below.';
  } else if (slackUserId !== undefined && paperspaceUserId !== undefined) {
    errors[F.paperspaceUserId.blockId] = 'Give a Slack user or a Paperspace user id, not both.';
  }
  if (enableAccess === undefined || Object.keys(errors).length > 0) return { ok: false, errors };

  const who = slackUserId !== undefined ? { slackUserId } : { paperspaceUserId: paperspaceUserId ?? '' };
  const target = await resolveAccessTarget(vault, teamId, who);
  if (!target.ok) {
    // Field errors are plain text: no mention here, the person is the one chosen in this field.
    errors[F.slackUser.blockId] =
      "That person has not linked a Paperspace key, so I don't know their Paperspace user; " +
      'ask them to /ps login, or give their Paperspace user id.';
    return { ok: false, errors };
  }
  return { ok: true, target, enableAccess };
}

export function registerAccessSubmission(router: ListenerRouter, deps: MachinesDeps): void {
  router.view(CallbackId.machineAccess, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const machine = machineOf(submission.metadata);
    const form = readMachineAccessSubmission(submission.values);
    const checked = await checkForm(deps.vault, submission.user.teamId, form);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: checked.errors });
      return;
    }
    await ack();

    const paperspace = await submission.userClient();
    if (!paperspace) return;
    const { target, enableAccess } = checked;
    try {
      await createMachineOperations(deps).setAccess(
        { user: submission.user, client: paperspace },
        machine.id,
        {
          paperspaceUserId: target.paperspaceUserId,
          enableAccess,
        },
      );
      await submission.tell(accessChangedMessage(machine.name, target, enableAccess));
    } catch (error) {
      await submission.tellFailure(error);
    }
  });
}
