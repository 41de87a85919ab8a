import type {
  App,
  ReceiverProcessEventErrorHandlerArgs,
  SocketModeReceiverProcessEventErrorHandlerArgs,
} from '@slack/bolt';
import { ErrorCode as BoltErrorCode, webApi } from '@slack/bolt';
import type { Logger } from 'pino';

// Bolt exports the handler type only through App#error's overloads; Parameters<> sees the last, extended one.
type ExtendedErrorHandler = Parameters<App['error']>[0];
type ExtendedErrorHandlerArgs = Parameters<ExtendedErrorHandler>[0];

/** What a log line may say about an error: no request configs, headers or bodies, which can carry tokens. */
export interface SafeErrorDescription {
  type: string;
  message: string;
  code?: string;
  /** The `error` string of a Slack Web API platform error (`channel_not_found`, `invalid_auth`, ...). */
  slackError?: string;
  statusCode?: number;
  stack?: string;
  causes?: SafeErrorDescription[];
}

/** What a log line may say about the Slack request that failed: who and which surface, never typed text. */
export interface SafeRequestDescription {
  kind: string;
  userId?: string;
  teamId?: string;
  channelId?: string;
  command?: string;
  actionIds?: string[];
  callbackId?: string;
  eventType?: string;
}

const SLACK_TOKEN_PATTERN = /\b(xox[a-z]|xapp)-[A-Za-z0-9-]+/g;
const MAX_CAUSE_DEPTH = 3;

/** Slack tokens can end up in third-party error messages (a URL, an echoed header); they never reach a log. */
export function redactSlackTokens(text: string): string {
  return text.replace(SLACK_TOKEN_PATTERN, '$1-[redacted]');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function stringField(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

function recordField(record: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

/**
 * Picks the fields worth logging from any thrown value. Error objects from HTTP libraries carry their request
 * (with an Authorization header) as enumerable properties, so this never serialises an error wholesale.
 * Log it under `error`, not `err`: pino's err serializer would treat it as an Error and rewrite `type`.
 */
export function describeError(error: unknown, depth = 0): SafeErrorDescription {
  if (!(error instanceof Error)) {
    return { type: typeof error, message: redactSlackTokens(String(error)) };
  }
  const fields: Record<string, unknown> = { ...error };
  const code = stringField(fields, 'code');
  // Bolt wraps whatever a listener threw in an UnknownError; the listener's error is the one worth reading.
  if (code === BoltErrorCode.UnknownError && fields.original instanceof Error) {
    return describeError(fields.original, depth);
  }
  const description: SafeErrorDescription = {
    type: error.name,
    message: redactSlackTokens(error.message),
  };
  if (code !== undefined) description.code = code;
  if (code === webApi.ErrorCode.PlatformError) {
    const slackError = stringField(recordField(fields, 'data') ?? {}, 'error');
    if (slackError !== undefined) description.slackError = slackError;
  }
  const statusCode = fields.statusCode;
  if (typeof statusCode === 'number') description.statusCode = statusCode;
  if (error.stack !== undefined) description.stack = redactSlackTokens(error.stack);

  if (depth < MAX_CAUSE_DEPTH) {
    const causes: unknown[] = [];
    if (Array.isArray(fields.originals)) causes.push(...fields.originals);
    if (fields.original !== undefined) causes.push(fields.original);
    if (error.cause !== undefined) causes.push(error.cause);
    if (causes.length > 0) description.causes = causes.map((cause) => describeError(cause, depth + 1));
  }
  return description;
}

/**
 * Names the request that failed: kind, user, team and the ids that route it. The command text, input values and
 * message contents stay out, because a user may paste an API key into any of them.
 */
export function describeSlackRequest(body: unknown): SafeRequestDescription {
  if (!isRecord(body)) return { kind: 'unknown' };
  const command = stringField(body, 'command');
  if (command !== undefined) {
    return {
      kind: 'command',
      command,
      userId: stringField(body, 'user_id'),
      teamId: stringField(body, 'team_id'),
      channelId: stringField(body, 'channel_id'),
    };
  }
  const type = stringField(body, 'type') ?? 'unknown';
  const user = recordField(body, 'user');
  const team = recordField(body, 'team');
  const base: SafeRequestDescription = {
    kind: type,
    userId: user ? stringField(user, 'id') : undefined,
    teamId: (team ? stringField(team, 'id') : undefined) ?? stringField(body, 'team_id'),
  };
  if (type === 'event_callback') {
    const event = recordField(body, 'event') ?? {};
    return {
      ...base,
      kind: 'event',
      eventType: stringField(event, 'type'),
      userId: stringField(event, 'user'),
    };
  }
  const actions = body.actions;
  if (Array.isArray(actions)) {
    const channel = recordField(body, 'channel');
    return {
      ...base,
      channelId: channel ? stringField(channel, 'id') : undefined,
      actionIds: actions.filter(isRecord).map((action) => stringField(action, 'action_id') ?? '?'),
    };
  }
  const view = recordField(body, 'view');
  if (view !== undefined) return { ...base, callbackId: stringField(view, 'callback_id') };
  return base;
}

/**
 * Bolt's global error handler. Every listener failure is logged once, here, with what happened and for whom.
 * It rethrows so the receiver still answers an unacknowledged request at once (500) instead of letting Slack
 * wait 3 s for a timeout; the receivers' processEventErrorHandlers below answer without logging it again.
 */
export function createSlackErrorHandler(logger: Logger): ExtendedErrorHandler {
  return async ({ error, body }: ExtendedErrorHandlerArgs) => {
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
