// The create form's submission. Field errors must come back in the ack (Slack shows them only as
// `response_action: 'errors'`), so everything that can be checked is checked before it: the schema
// and a team machine's assignment to a person without any API call, then the template's OS rules (Windows cannot be C1-C10, Ubuntu cannot be a
// GRID type), which need the template. That one lookup is bounded: if it is not back within
// TEMPLATE_LOOKUP_MS, the form is accepted and Paperspace, which checks the same rules, refuses it
// after the modal has closed (the person is told privately). The ack thus always goes out well inside
// Slack's 3 s. Then the machine is created through the audit trail and announced in the channel.

import { describeError } from '../../../errors/describe-error.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import type { Template } from '../../../paperspace/schemas.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { offerCreateRequest } from '../../approvals/create-route.js';
import {
  createMachineFieldBlockIds,
  readCreateMachineSubmission,
} from '../blocks/create-machine-submission.js';
import { announceCreated, checkCreateParams, findTemplate, withAccountTeam } from '../create-flow.js';
import { createMachineOperations } from '../machine-operations.js';
import { fieldErrors, type MachineSubmission, readSubmission } from './machine-submission.js';

/** Budget of the template lookup before the ack; the vault read and Slack's round trip need the rest. */
export const TEMPLATE_LOOKUP_MS = 1500;

export function registerCreateSubmission(router: ListenerRouter, deps: ListenerDeps): void {
  router.view(CallbackId.createMachine, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const { values, user } = submission;
    const account = await deps.vault.account(user);
    const params = withAccountTeam(readCreateMachineSubmission(values), account);
    const basic = checkCreateParams(params, account);
    if (!basic.ok) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(basic.issues, createMachineFieldBlockIds, values),
      });
      return;
    }
    const paperspace = await deps.clients.forUser(user);
    const template =
      paperspace && (await templateWithinBudget(submission, paperspace, basic.value.templateId));
    const checked = template ? checkCreateParams(params, account, template) : basic;
    if (!checked.ok) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(checked.issues, createMachineFieldBlockIds, values),
      });
      return;
    }
    await ack();

    const userClient = paperspace ?? (await submission.userClient());
    if (!userClient) return;
    try {
      const outcome = await createMachineOperations(deps).create(
        { user, client: userClient },
        checked.value,
        template,
      );
      await announceCreated({
        deps: submission.deps,
        web: submission.web,
        user,
        outcome,
        channel: submission.metadata.channelId,
        tell: submission.tell,
      });
    } catch (error) {
      // A team member: Paperspace refuses, and the approvals feature offers to ask an administrator.
      if (await offerCreateRequest(error, account, checked.value, submission.tell)) return;
      await submission.tellFailure(error);
    }
  });
}

async function templateWithinBudget(
  submission: MachineSubmission,
  client: PaperspaceClient,
  templateId: string,
): Promise<Template | undefined> {
  try {
    return await findTemplate(client, templateId, {
      signal: AbortSignal.timeout(TEMPLATE_LOOKUP_MS),
      maxRetries: 0,
    });
  } catch (error) {
    submission.deps.logger.info(
      { error: describeError(error) },
      'template lookup for the create form did not finish in time; Paperspace will check the template rules',
    );
    return undefined;
  }
}
