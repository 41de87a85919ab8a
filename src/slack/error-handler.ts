import type {
  App,
  ReceiverProcessEventErrorHandlerArgs,
  SocketModeReceiverProcessEventErrorHandlerArgs,
} from '@slack/bolt';
import { ErrorCode as BoltErrorCode } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeError, describeSlackRequest } from '../errors/describe-error.js';
import { wasAnswered } from './failure-answers.js';

// Bolt exports the handler type only through App#error's overloads; Parameters<> sees the last, extended one.
type ExtendedErrorHandler = Parameters<App['error']>[0];
type ExtendedErrorHandlerArgs = Parameters<ExtendedErrorHandler>[0];

/**
 * Bolt's global error handler. Every listener failure is logged once, here, with what happened and for whom.
 * It rethrows so the receiver still answers an unacknowledged request at once (500) instead of letting Slack
 * wait 3 s for a timeout; the receivers' processEventErrorHandlers below answer without logging it again.
 */
export function createSlackErrorHandler(logger: Logger): ExtendedErrorHandler {
  return async ({ error, body }: ExtendedErrorHandlerArgs) => {
    // Logged, and answered on its surface, where it happened (failure-answers.ts).
    if (wasAnswered(error)) throw error;
    logger.error(
      { error: describeError(error), request: describeSlackRequest(body) },
      'Slack request failed',
    );
    throw error;
  };
}

/** Told to a person whose workspace has no installation of the app (OAuth mode). */
const NOT_INSTALLED_TEXT =
  'The Paperspace bot is not installed in this workspace, so it cannot answer here: ask a workspace admin ' +
  'to install it (or to add it to this workspace, on Enterprise Grid), then try again.';

/**
 * HTTP mode: a failed request that nobody acknowledged gets its answer now: 500, or for a workspace
 * with no installation (authorisation failed) a 200 Slack need not retry, which to a slash command
 * carries the sentence saying so (Slack shows a command's response body to the person alone; other
 * requests have no body Slack would show). Returning true marks it acknowledged, so Bolt's 3 s "not
 * acknowledged" timer does not fire too.
 */
export async function answerFailedHttpRequest({
  error,
  request,
  response,
}: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
  if (response.headersSent) return false;
  if (!isAuthorizationError(error)) {
    response.writeHead(500);
    response.end();
    return true;
  }
  if (isSlashCommand(request)) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ response_type: 'ephemeral', text: NOT_INSTALLED_TEXT }));
    return true;
  }
  response.writeHead(200);
  response.end();
  return true;
}

/** A slash command's form body (the guard buffered it: Bolt's rawBody), which names its `command`. */
function isSlashCommand(request: unknown): boolean {
  const raw = (request as { rawBody?: unknown }).rawBody;
  if (!Buffer.isBuffer(raw)) return false;
  return new URLSearchParams(raw.toString()).has('command');
}

/**
 * Socket Mode: only an authorisation failure is acknowledged (Slack stops retrying something that cannot work);
 * anything else stays unacknowledged so Slack shows the user that the request failed. Already logged.
 */
export async function acknowledgeFailedSocketModeEvent({
  error,
}: SocketModeReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
  return isAuthorizationError(error);
}

function isAuthorizationError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === BoltErrorCode.AuthorizationError;
}
