// The "Request a machine" step: the member's create request of the approvals feature, sent for the
// person who started the workflow or clicked in it, to their team's administrators (or its approvals channel). The step stays
// open while the request waits: the request keeps the run's function_execution_id, and whoever decides
// it, on any replica and after any restart, ends the run (request-completion.ts). What Paperspace would
// refuse is named at once, before anyone is asked.
import { UserFacingError } from '../../errors/user-facing-error.js';
import { REGION_CODE_LIST, resolveRegion } from '../../slack/command-language/command-values.js';
import { openCreateRequest } from '../approvals/request-delivery.js';
import { readAccountKind } from '../machines/account-kind.js';
import { checkCreateParams, findTemplate, withAccountTeam } from '../machines/create-flow.js';
import { describeIssues } from '../machines/typed-key-values.js';
import { stepActor } from './step-actor.js';
import { type StepArgs, stepListener, textInput } from './step-run.js';
import type { WorkflowStepsDeps } from './workflow-steps-deps.js';

/** Long enough for a sentence or two; the approvers' message has room for it beside the machine. */
const MAX_REASON_LENGTH = 500;

function regionOf(inputs: Record<string, unknown>): string {
  const typed = textInput(inputs, 'region', 'Region');
  const region = resolveRegion(typed);
  if (region === null) {
    throw new UserFacingError(
      `"${typed}" is not a Paperspace region: use one of ${REGION_CODE_LIST.join(', ')}.`,
    );
  }
  return region;
}

function diskSizeOf(inputs: Record<string, unknown>): number {
  const typed = inputs.disk_size;
  const size = typeof typed === 'string' && typed.trim() !== '' ? Number(typed) : typed;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) {
    throw new UserFacingError(
      `This step needs the "Disk size (GB)" input as a whole number of GB; it was ${String(typed ?? 'empty')}.`,
    );
  }
  return size;
}

function reasonOf(inputs: Record<string, unknown>): string | null {
  const typed = inputs.reason;
  if (typed === undefined || typed === null) return null;
  const reason = String(typed).trim();
  if (reason.length > MAX_REASON_LENGTH) {
    throw new UserFacingError(
      `The reason is ${reason.length} characters long: keep it to ${MAX_REASON_LENGTH}, the approvers read it in a message.`,
    );
  }
  return reason === '' ? null : reason;
}

export function requestStep(deps: WorkflowStepsDeps): (args: StepArgs) => Promise<void> {
  return stepListener(deps, 'workflow_step.request', async ({ user, inputs, executionId, web }) => {
    const typed = {
      machineName: textInput(inputs, 'machine_name', 'Machine name'),
      machineType: textInput(inputs, 'machine_type', 'Machine type'),
      templateId: textInput(inputs, 'template', 'Template'),
      region: regionOf(inputs),
      size: diskSizeOf(inputs),
    };
    const reason = reasonOf(inputs);
    const actor = await stepActor(deps, user);
    const linked = await deps.vault.account(user);
    const [{ account }, template] = await Promise.all([
      readAccountKind(actor.client),
      findTemplate(actor.client, typed.templateId),
    ]);
    if (linked === undefined || account.kind === 'individual') {
      throw new UserFacingError(
        `The Paperspace account of the person this step acts for is not a team, so there is no administrator to ask: they can create the machine themselves with \`/ps create\`.`,
      );
    }
    if (template === undefined) {
      throw new UserFacingError(
        `The key of the person this step acts for sees no template "${typed.templateId}": use a template id as \`/ps templates\` lists it.`,
      );
    }
    // Checked as the approver's create will be: the machine goes to the requester (their Paperspace
    // user); the contract's one billing type is filled in by the create schema.
    const params = {
      ...typed,
      userId: linked.userId,
    };
    const checked = checkCreateParams(
      withAccountTeam(params, account, actor.client.dialect),
      account,
      actor.client.dialect,
      template,
    );
    if (!checked.ok) {
      throw new UserFacingError(`Paperspace would refuse this machine: ${describeIssues(checked.issues)}`);
    }
    const told: string[] = [];
    const request = await openCreateRequest(
      {
        deps,
        web,
        user,
        client: actor.client,
        channel: undefined,
        tell: async (message) => void told.push(message.text),
      },
      linked,
      checked.value,
      { functionExecutionId: executionId, reason },
    );
    if (request === undefined) throw new UserFacingError(told.join(' ') || 'The request could not be sent.');
    // No outputs yet: the request's decision ends the run.
    return { resourceId: request.id };
  });
}
