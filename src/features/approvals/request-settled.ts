// What became of a request, for whoever waits on it outside the conversations the request was posted
// in: a Workflow Builder "Request a machine" step ends its run with it. Approvals comes before
// workflow-steps in the feature order, so that feature's callback is handed in from features/index.ts.
// It is called once per request, by the one replica whose decision moved it out of 'open'.
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { StoredRequest } from '../../store/approval-requests.js';

/** How a request ended: `by` is the Slack user who decided (approver, denier, or the requester withdrawing). */
export type RequestEnd =
  | { status: 'approved'; by: string; machine: Machine }
  | { status: 'denied'; by: string; reason: string | null }
  | { status: 'withdrawn'; by: string }
  | { status: 'expired' }
  | { status: 'failed'; by: string; reason: string };

/** `web` is the workspace's client, as the decision had it; `logger` the bot's. */
export type RequestSettled = (
  context: { web: WebClient; logger: Logger },
  request: StoredRequest,
  end: RequestEnd,
) => Promise<void>;

/** Tells whoever waits; what goes wrong there is logged, never the decision's failure. */
export async function tellWaiting(
  context: { settled: RequestSettled; web: WebClient; logger: Logger },
  request: StoredRequest,
  end: RequestEnd,
): Promise<void> {
  try {
    await context.settled({ web: context.web, logger: context.logger }, request, end);
  } catch (error) {
    context.logger.error(
      { requestId: request.id, status: end.status, error: describeError(error) },
      'could not tell what waits on a request how it ended',
    );
  }
}
