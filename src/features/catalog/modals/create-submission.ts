// The submission both create forms (startup script, shared drive) share; each form supplies only what
// differs (how its fields are read and checked, the create call and what success says). A problem
// with the form (or found with the key, like a taken name) is shown under its field in the ack, with
// everything typed kept. The create itself is
// a change that must not run twice, so it is not raced against Slack's 3 seconds: the ack turns the
// modal into "Creating…" at once, the audited create runs with the submitter's own key, and the modal
// (or, if it was closed, the DM) then shows what happened: on a refusal, the form again with what was
// typed and the reason under its field.

import type { WebClient } from '@slack/web-api';
import { describeError } from '../../../errors/describe-error.js';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import type { RequestOptions } from '../../../paperspace/http.js';
import { msLeftOf } from '../../../slack/ack-deadline.js';
import { section } from '../../../slack/block-kit/elements.js';
import { fieldErrors } from '../../../slack/block-kit/field-errors.js';
import type { FormReading, ParameterProblems } from '../../../slack/block-kit/form-problems.js';
import type { SubmittedView } from '../../../slack/block-kit/form-refill.js';
import { statusModal } from '../../../slack/block-kit/status-modal.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import type { ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { putFormBack } from '../../../slack/form-refusal.js';
import { userOf } from '../../../slack/interaction.js';
import { showOutcome } from '../../../slack/modal-submission.js';
import { postIn } from '../../../slack/posting.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { SlackUser } from '../../../store/slack-user.js';
import type { CatalogDeps } from '../catalog-deps.js';

/** What sets one create form apart from the other. */
export interface CreateForm<Params> {
  callbackId: string;
  /** The modal's title, kept on the "Creating…" and outcome views. */
  title: string;
  /** What is being created, for "⏳ Creating the drive…". */
  what: string;
  /** The create parameters from the submitted values, or problems keyed by form input. */
  read: (values: ViewStateValues) => FormReading<Params>;
  /** Form input -> the block its problem is shown under. */
  fieldBlockIds: Readonly<Record<string, string>>;
  /** Where a problem goes whose input has no block in this submission. */
  fallbackBlockId: string;
  /** The input a conflict (409) is about, e.g. a name already taken. */
  conflictParameter?: string;
  /**
   * Problems found with the submitter's key before the ack (a name already taken), shown under their
   * fields in the same round as the form's own. Bounded by CHECK_MS: a check not back by then, or
   * failing, finds nothing, and Paperspace, which checks the same, refuses after the ack instead.
   */
  check?: (
    paperspace: PaperspaceClient,
    params: Params,
    options: RequestOptions,
  ) => Promise<ParameterProblems>;
  /** Runs the audited create; answers the success line (mrkdwn, escaped) and detail lines. */
  create: (
    paperspace: PaperspaceClient,
    user: SlackUser,
    params: Params,
  ) => Promise<{ done: string; details?: string[] }>;
}

export function registerCreateForm<Params>(
  router: ListenerRouter,
  deps: CatalogDeps,
  form: CreateForm<Params>,
): void {
  router.view(form.callbackId, async ({ ack, body, view, client, context }) => {
    const user = userOf(body);
    const values = view.state.values;
    const reading = form.read(values);
    if (!reading.ok) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(reading.problems, form.fieldBlockIds, values, form.fallbackBlockId),
      });
      return;
    }
    const { params } = reading;
    const problems = form.check
      ? await checkWithinBudget(deps, form, user, params, msLeftOf(context, CHECK_MS))
      : {};
    if (Object.keys(problems).length > 0) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(problems, form.fieldBlockIds, values, form.fallbackBlockId),
      });
      return;
    }
    await ack({
      response_action: 'update',
      view: statusModal({
        callbackId: form.callbackId,
        title: form.title,
        text: `⏳ Creating ${form.what}…`,
        close: 'Close',
      }),
    });
    await finishInModal(deps, form, {
      client,
      view: view as unknown as SubmittedView & { id: string },
      user,
      params,
    });
  });
}

/** Budget of a form's checks before the ack, from the request's arrival; the vault read and Slack need the rest of the 3 s. */
const CHECK_MS = 1500;

async function checkWithinBudget<Params>(
  deps: CatalogDeps,
  form: CreateForm<Params>,
  user: SlackUser,
  params: Params,
  budgetMs: number,
): Promise<ParameterProblems> {
  if (form.check === undefined) return {};
  try {
    const paperspace = await deps.clients.forUser(user);
    if (paperspace === undefined) return {};
    return await form.check(paperspace, params, { signal: AbortSignal.timeout(budgetMs), maxRetries: 0 });
  } catch (error) {
    deps.logger.info(
      { callbackId: form.callbackId, error: describeError(error) },
      'a create form check did not finish in time; Paperspace will check it',
    );
    return {};
  }
}

/**
 * Runs the create with the submitter's key and puts what happened in the modal (or their DM): the
 * outcome on success, the form with what was typed and the reason under its field on a refusal.
 */
async function finishInModal<Params>(
  deps: CatalogDeps,
  form: CreateForm<Params>,
  submission: { client: WebClient; view: SubmittedView & { id: string }; user: SlackUser; params: Params },
): Promise<void> {
  const { client, view, user, params } = submission;
  const logger = deps.logger.child({ callbackId: form.callbackId, user: user.userId });
  let created: { done: string; details?: string[] };
  try {
    const paperspace = await deps.clients.forUser(user);
    if (paperspace === undefined) {
      throw new UserFacingError(
        'Your Paperspace key is no longer linked. Link it with /ps login, then try again.',
      );
    }
    created = await form.create(paperspace, user, params);
  } catch (error) {
    await putFormBack({
      client,
      view,
      error,
      fieldBlockIds: form.fieldBlockIds,
      ...(form.conflictParameter === undefined ? {} : { conflictParameter: form.conflictParameter }),
      logger,
      tell: async (message) => {
        await postIn(client, { channel: user.userId }, message, deps.pacer);
      },
    });
    return;
  }
  const details = created.details ?? [];
  const message: SlackMessage = {
    blocks: [section([created.done, ...details].join('\n'))],
    text: created.done,
  };
  await showOutcome({
    client,
    viewId: view.id,
    view: statusModal({ callbackId: form.callbackId, title: form.title, text: created.done, details }),
    user,
    message,
    logger,
    pacer: deps.pacer,
  });
}
