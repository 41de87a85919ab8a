// The shape both create forms (startup script, shared drive) follow once the form itself is valid:
// the create is a change that must not run twice, so it is not raced against Slack's 3 seconds. The
// ack turns the modal into "Creating…" at once, the audited create runs with the submitter's own
// key, and the modal (or, if it was closed, the DM) then shows what happened.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { messageForUser } from '../../../errors/user-message.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import { errorMessage } from '../../../slack/block-kit/messages.js';
import { statusModal } from '../../../slack/block-kit/status-modal.js';
import { escapeMrkdwn, mrkdwn, type SlackMessage } from '../../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { showOutcome } from '../../../slack/modal-submission.js';
import type { SlackUser } from '../../../store/slack-user.js';

export interface CreateInModal {
  deps: ListenerDeps;
  client: WebClient;
  viewId: string;
  user: SlackUser;
  callbackId: string;
  title: string;
  /** Runs the audited create; answers the success line (mrkdwn, escaped) and detail lines. */
  create: (paperspace: PaperspaceClient) => Promise<{ done: string; details?: string[] }>;
  logger: Logger;
}

/** The "Creating…" modal for the ack. */
export function creatingView(callbackId: string, title: string, what: string) {
  return statusModal({ callbackId, title, text: `⏳ Creating ${what}…`, close: 'Close' });
}

export async function finishCreateInModal(input: CreateInModal): Promise<void> {
  let text: string;
  let details: string[] = [];
  let message: SlackMessage;
  try {
    const paperspace = await input.deps.clients.forUser(input.user);
    if (paperspace === undefined) {
      throw new UserFacingError(
        'Your Paperspace key is no longer linked. Link it with /ps login, then try again.',
      );
    }
    const created = await input.create(paperspace);
    text = created.done;
    details = created.details ?? [];
    message = { blocks: [{ type: 'section', text: mrkdwn([text, ...details].join('\n')) }], text };
  } catch (error) {
    const reason = messageForUser(error, input.logger);
    text = `❌ ${escapeMrkdwn(reason)}`;
    message = errorMessage(reason);
  }
  await showOutcome({
    client: input.client,
    viewId: input.viewId,
    view: statusModal({ callbackId: input.callbackId, title: input.title, text, details }),
    user: input.user,
    message,
    logger: input.logger,
  });
}
