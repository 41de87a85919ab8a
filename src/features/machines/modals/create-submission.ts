// The create form's submission. Field errors can only come back in the ack (Slack shows them only as
// `response_action: 'errors'`), so everything that can be checked is checked before it, all in one
// round: the schema and who the machine belongs to without any API call, then the template's OS rules
// (Windows cannot be C1-C10, Ubuntu cannot be a GRID type) and the network's region, which need a
// lookup. Those lookups are bounded: if they are not back within LOOKUP_MS, Paperspace, which checks
// the same rules, is left to refuse, so the ack always goes out well inside Slack's 3 s.
// Whether the account is a team was read from Paperspace when the form was built: only a team's form
// has the user-assignment fields.
// The create runs with the submitter's key. When Paperspace answers it within the ack's time, a
// success closes the form and the card posted in the channel says the rest; otherwise the ack turns the
// form into "Creating…", and then the modal says it was created (the card is in the channel), or the
// form comes back with what was typed and the reason under its field.

import type { WebClient } from '@slack/web-api';
import { describeError } from '../../../errors/describe-error.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import type { Network, Template } from '../../../paperspace/schemas.js';
import { msLeftOf } from '../../../slack/ack-deadline.js';
import { fieldErrors } from '../../../slack/block-kit/field-errors.js';
import { issueProblems } from '../../../slack/block-kit/form-problems.js';
import type { SubmittedView } from '../../../slack/block-kit/form-refill.js';
import { statusModal } from '../../../slack/block-kit/status-modal.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { hasField } from '../../../slack/block-kit/view-state.js';
import { putFormBack } from '../../../slack/form-refusal.js';
import { CallbackId } from '../../../slack/ids.js';
import { inRequest } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { type AccountKind, INDIVIDUAL } from '../account-kind.js';
import { CreateMachineFields as F } from '../blocks/create-machine-fields.js';
import {
  createMachineFieldBlockIds,
  readCreateMachineSubmission,
} from '../blocks/create-machine-submission.js';
import * as createFlow from '../create-flow.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { OwnerRequests } from '../machines-wiring.js';
import { type MachineSubmission, readSubmission } from './machine-submission.js';

/**
 * Budget of the template and network lookups before the ack, counted from the request's arrival; the
 * vault read and Slack need the rest of the 3 s.
 */
const LOOKUP_MS = 1500;
const TITLE = 'Create machine';
/**
 * How long, from the request's arrival, a create may take and still close the form in the ack: Slack
 * waits 3 s, and the ack itself needs the rest.
 */
const CREATE_ACK_MS = 2500;

export function registerCreateSubmission(
  router: ListenerRouter,
  deps: MachinesDeps,
  requests: OwnerRequests,
): void {
  router.view(CallbackId.createMachine, async ({ ack, body, client, context }) => {
    const submission = readSubmission(deps, { body, client, context });
    const { values, user } = submission;
    const linked = await deps.vault.account(user);
    const account: AccountKind =
      hasField(values, F.existingUser) && linked?.teamId
        ? { kind: 'team', teamId: linked.teamId }
        : INDIVIDUAL;
    const paperspace = await deps.clients.forUser(user);
    const asker = { user, linked, account, dialect: paperspace?.dialect ?? 'contract' };
    const params = createFlow.completeCreateParams(asker, readCreateMachineSubmission(values));
    const found = paperspace
      ? await lookupsWithinBudget(submission, paperspace, params, msLeftOf(context, LOOKUP_MS))
      : { template: undefined, network: undefined };
    const checked = createFlow.checkCreate(params, asker, found);
    if (!checked.ok) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(issueProblems(checked.issues), createMachineFieldBlockIds, values),
      });
      return;
    }
    const name = escapeMrkdwn(checked.value.machineName);
    const creating = `⏳ Creating *${name}*…`;
    const userClient = paperspace ?? (await submission.userClient());
    if (!userClient) {
      await ack({
        response_action: 'update',
        view: statusModal({ callbackId: CallbackId.createMachine, title: TITLE, text: creating }),
      });
      return;
    }
    const attempt = settled(
      createFlow.createForPerson(deps, { user, client: userClient }, checked.value, found.template),
    );
    // A create Paperspace answers within the ack's time closes the form: its card in the channel says
    // the rest. A slower one turns the form into "Creating…", and the modal then says how it ended.
    const early = await within(attempt, msLeftOf(context, CREATE_ACK_MS));
    if (early?.ok === true) {
      await ack({ response_action: 'clear' });
      await createFlow.announceCreated({
        deps: inRequest(deps, submission),
        web: submission.web,
        user,
        outcome: early.outcome,
        channel: submission.metadata.channelId,
        tell: submission.tell,
      });
      return;
    }
    await ack({
      response_action: 'update',
      view: statusModal({ callbackId: CallbackId.createMachine, title: TITLE, text: creating }),
    });
    const view = body.view as unknown as SubmittedView & { id: string };
    const result = early ?? (await attempt);
    if (!result.ok) {
      const { error } = result;
      // A team member: the form they filled becomes the request to the administrators, and the modal,
      // where they are looking, says where it went (or why it could not go).
      const requested = await requests.requestCreateInstead(error, checked.value, {
        deps: inRequest(deps, submission),
        web: submission.web,
        user,
        client: userClient,
        channel: submission.metadata.channelId,
      });
      if (requested !== undefined) {
        await showInModal(deps, client, view.id, requested);
        return;
      }
      await putFormBack({
        client,
        view,
        error,
        fieldBlockIds: createMachineFieldBlockIds,
        secretBlockIds: [F.newUserPassword.blockId],
        logger: deps.logger,
        tell: submission.tell,
      });
      return;
    }
    const { outcome } = result;
    await showInModal(
      deps,
      client,
      view.id,
      `✅ Created *${name}*. Its card is posted where you opened this form.`,
    );
    await createFlow.announceCreated({
      deps: inRequest(deps, submission),
      web: submission.web,
      user,
      outcome,
      channel: submission.metadata.channelId,
      tell: submission.tell,
    });
  });
}

type Settled<T> = { ok: true; outcome: T } | { ok: false; error: unknown };

function settled<T>(work: Promise<T>): Promise<Settled<T>> {
  return work.then(
    (outcome) => ({ ok: true, outcome }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** What `work` settled to within `ms`, or undefined when it is still under way. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The create's outcome in the modal; a modal closed meanwhile is no failure of the create. */
async function showInModal(
  deps: MachinesDeps,
  client: WebClient,
  viewId: string,
  text: string,
): Promise<void> {
  await client.views
    .update({ view_id: viewId, view: statusModal({ title: TITLE, text }) })
    .catch((error: unknown) => deps.logger.info({ err: error }, 'create form closed before its outcome'));
}

async function lookupsWithinBudget(
  submission: MachineSubmission,
  client: PaperspaceClient,
  params: Record<string, unknown>,
  budgetMs: number,
): Promise<{ template: Template | undefined; network: Network | undefined }> {
  const options = { signal: AbortSignal.timeout(budgetMs), maxRetries: 0 };
  const bounded = async <T>(lookup: Promise<T>, what: string): Promise<T | undefined> => {
    try {
      return await lookup;
    } catch (error) {
      submission.deps.logger.info(
        { error: describeError(error) },
        `${what} lookup for the create form did not finish in time; Paperspace will check its rules`,
      );
      return undefined;
    }
  };
  const [template, network] = await Promise.all([
    bounded(createFlow.findTemplate(client, params.templateId, options), 'template'),
    bounded(createFlow.findNetwork(client, params.networkId, options), 'network'),
  ]);
  return { template, network };
}
