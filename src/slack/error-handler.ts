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

/**
 * HTTP mode: a failed request that nobody acknowledged gets its answer now (401 when authorisation failed,
 * 500 otherwise). Returning true marks it acknowledged, so Bolt's 3 s "not acknowledged" timer does not fire too.
 */
export async function answerFailedHttpRequest({
  error,
  response,
}: ReceiverProcessEventErrorHandlerArgs): Promise<boolean> {
  if (response.headersSent) return false;
  response.writeHead(isAuthorizationError(error) ? 401 : 500);
  response.end();
  return true;
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
