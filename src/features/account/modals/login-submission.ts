// The login form's submission. The key is checked with Paperspace before it is stored, and that check
// races Slack's 3-second limit for answering a submission.
//
// Why a time budget rather than always "Checking…" then views.update: while the answer is still the
// ack, a refused key comes back as a field error under the field, and Slack keeps everything typed in
// the form, so the person corrects one field and submits again. After the ack that is impossible
// (errors can only be sent in the ack, and a form put back with views.update starts empty). So the
// check gets ACK_BUDGET_MS, which leaves room for the round trip to Slack; a check that outlives it
// (a slow Paperspace) falls back to "Checking your key…" and then updates the modal with the outcome.

import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { messageForUser } from '../../../errors/user-message.js';
import { msLeftOf } from '../../../slack/ack-deadline.js';
import { fieldErrors } from '../../../slack/block-kit/field-errors.js';
import { errorMessage } from '../../../slack/block-kit/messages.js';
import { CallbackId } from '../../../slack/ids.js';
import { userOf } from '../../../slack/interaction.js';
import { showOutcome, within } from '../../../slack/modal-submission.js';
import { postIn } from '../../../slack/posting.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { publishHome } from '../../home/publish-home.js';
import { policiesLinkingNotice } from '../../policies/linking-notice.js';
import type { AccountDeps } from '../account-deps.js';
import {
  createAccountLinking,
  type LinkedResult,
  type LinkOutcome,
  type LinkProblems,
} from '../account-linking.js';
import { linkedNotice } from '../blocks/account.js';
import {
  LoginFields,
  loginCheckingView,
  loginLinkedView,
  loginModal,
  readLoginSubmission,
} from '../blocks/login-modal.js';

export const ACK_BUDGET_MS = 2500;
/** users.info is quick; the key check needs the rest of Slack's 3 seconds. */
const PROFILE_BUDGET_MS = 400;

const PROBLEM_BLOCKS = {
  apiKey: LoginFields.apiKey.blockId,
  accessToken: LoginFields.accessToken.blockId,
  email: LoginFields.email.blockId,
};
const PROBLEM_LABELS = { apiKey: 'API key', accessToken: 'Access token', email: 'E-mail' };

type Attempt = { outcome: LinkOutcome } | { failure: string };
type Linked = { outcome: LinkedResult };

const isLinked = (attempt: Attempt): attempt is Linked => 'outcome' in attempt && attempt.outcome.ok;

export function registerLoginSubmission(router: ListenerRouter, deps: AccountDeps): void {
  const linking = createAccountLinking(deps);

  router.view(CallbackId.login, async ({ ack, body, view, client, context }) => {
    const user = userOf(body);
    const logger = deps.logger.child({ callbackId: CallbackId.login, user: user.userId });
    const request = readLoginSubmission(view.state.values);
    const errorsOf = (problems: LinkProblems) =>
      fieldErrors(problems, PROBLEM_BLOCKS, view.state.values, LoginFields.apiKey.blockId);
    const formProblems = linking.formProblems(request);
    if (Object.keys(formProblems).length > 0) {
      await ack({ response_action: 'errors', errors: errorsOf(formProblems) });
      return;
    }

    const slackEmail = await profileEmail(client, user.userId, logger);
    const attempt: Promise<Attempt> = linking.link(user, { ...request, slackEmail }).then(
      (outcome) => ({ outcome }),
      (error: unknown) => ({ failure: messageForUser(error, logger) }),
    );
    // The budget counts from the request's arrival: the replay check, parsing and the profile read
    // above all came out of it.
    const early = await within(attempt, msLeftOf(context, ACK_BUDGET_MS));
    let settled: Attempt;
    if (early !== undefined) {
      settled = early;
      if (isLinked(settled)) {
        await ack({
          response_action: 'update',
          view: loginLinkedView(summaryOf(settled.outcome, deps.clients.capabilities.driveAccessToken)),
        });
      } else {
        await ack({ response_action: 'errors', errors: errorsOf(problemsOf(settled)) });
      }
    } else {
      logger.info({ budgetMs: ACK_BUDGET_MS }, 'key check outlived the ack budget; answering later');
      await ack({ response_action: 'update', view: loginCheckingView() });
      settled = await attempt;
      if (isLinked(settled)) {
        // The DM below confirms the link even when the modal was closed meanwhile.
        await client.views
          .update({
            view_id: view.id,
            view: loginLinkedView(summaryOf(settled.outcome, deps.clients.capabilities.driveAccessToken)),
          })
          .catch((error: unknown) => logger.info({ err: error }, 'login modal gone before its outcome'));
      } else {
        const problem = problemText(settled);
        await showOutcome({
          client,
          viewId: view.id,
          view: loginModal({ problem, capabilities: deps.clients.capabilities }),
          user,
          message: errorMessage(`Your Paperspace key was not linked. ${problem}`),
          logger,
          pacer: deps.pacer,
        });
      }
    }

    if (isLinked(settled)) {
      try {
        await postIn(
          client,
          { channel: user.userId },
          linkedNotice(
            summaryOf(settled.outcome, deps.clients.capabilities.driveAccessToken),
            await policiesLinkingNotice(deps.store, user, settled.outcome.account.teamId),
          ),
          deps.pacer,
        );
      } catch (error) {
        logger.warn({ err: error }, 'could not send the link confirmation');
      }
      await publishHome(client, deps, user);
    }
  });
}

/**
 * The e-mail on the person's Slack profile, which a team key's member must have. Undefined when Slack
 * shows none or does not answer in time; a team key is then refused with that reason.
 */
async function profileEmail(client: WebClient, userId: string, logger: Logger): Promise<string | undefined> {
  try {
    const answer = await within(client.users.info({ user: userId }), PROFILE_BUDGET_MS);
    return answer?.user?.profile?.email || undefined;
  } catch (error) {
    logger.warn({ err: error }, 'users.info failed; a team key cannot be confirmed');
    return undefined;
  }
}

function summaryOf(outcome: LinkedResult, drivesNeedAccessToken: boolean) {
  return {
    drivesNeedAccessToken,
    maskedKey: outcome.maskedKey,
    email: outcome.account.email,
    userId: outcome.account.userId,
    hasAccessToken: outcome.hasAccessToken,
  };
}

/** What went wrong per field; an unexpected failure is said under the key. */
function problemsOf(attempt: Attempt): LinkProblems {
  if ('failure' in attempt) return { apiKey: attempt.failure };
  return attempt.outcome.ok ? {} : attempt.outcome.problems;
}

/** The problems as one text, for the form put back after the ack, where no field error can be shown. */
function problemText(attempt: Attempt): string {
  if ('failure' in attempt) return attempt.failure;
  const problems = problemsOf(attempt);
  return (Object.keys(PROBLEM_LABELS) as (keyof LinkProblems)[])
    .filter((field) => problems[field] !== undefined)
    .map((field) => `${PROBLEM_LABELS[field]}: ${problems[field]}`)
    .join(' ');
}
