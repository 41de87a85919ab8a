// The Access form's submission: exactly one person (a Slack user, mapped to their Paperspace user
// through their linked key, or a Paperspace user id) and grant or revoke. Everything is checked before
// the ack, without Paperspace (the vault is local); the change then goes through the audit trail.
import type { App, ViewSubmitAction } from '@slack/bolt';
import { createMachineOperations } from '../../../../services/machine-operations.js';
import { accessChangedMessage } from '../../../blocks/machine-replies.js';
import {
  MachineAccessFields,
  readMachineAccessSubmission,
} from '../../../blocks/modals/machine-access-modal.js';
import { CallbackId } from '../../../ids.js';
import { resolveAccessTarget } from '../../commands/machines/access-target.js';
import type { ListenerDeps } from '../../deps.js';
import { machineOf, readSubmission } from './machine-submission.js';

const F = MachineAccessFields;

export function registerAccessSubmission(app: App, deps: ListenerDeps): void {
  app.view<ViewSubmitAction>(CallbackId.machineAccess, async ({ ack, body, view, client }) => {
    const submission = readSubmission(deps, body, view, client);
    const machine = machineOf(submission.metadata);
    const { slackUserId, paperspaceUserId, enableAccess } = readMachineAccessSubmission(submission.values);
    const errors: Record<string, string> = {};
    if (slackUserId === undefined && paperspaceUserId === undefined) {
      errors[F.slackUser.blockId] = 'Choose a person, or give a Paperspace user id below.';
    }
    if (slackUserId !== undefined && paperspaceUserId !== undefined) {
      errors[F.paperspaceUserId.blockId] = 'Give a Slack user or a Paperspace user id, not both.';
    }
    if (enableAccess === undefined) errors[F.change.blockId] = 'Choose grant or revoke.';
    const who = slackUserId !== undefined ? { slackUserId } : { paperspaceUserId: paperspaceUserId ?? '' };
    const target =
      Object.keys(errors).length === 0
        ? await resolveAccessTarget(deps.vault, submission.user.teamId, who)
        : undefined;
    if (target?.ok === false) {
      errors[F.slackUser.blockId] =
        "That person has not linked a Paperspace key, so I don't know their Paperspace user; " +
        'ask them to /ps login, or give their Paperspace user id.';
    }
    if (!target?.ok || enableAccess === undefined) {
      await ack({ response_action: 'errors', errors });
      return;
    }
    await ack();

    const paperspace = await submission.userClient();
    if (!paperspace) return;
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
