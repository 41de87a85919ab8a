// What may be said about a failure, in a log line or to the person who asked. Error objects of HTTP
// libraries carry their request (tokens in headers) as enumerable properties, so nothing here ever
// serialises an error whole. Below the Slack layer, so that observability, the scheduler and the
// features can all describe errors without importing Slack code.
import { ErrorCode as BoltErrorCode, webApi } from '@slack/bolt';

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
  // An HTTP library's statusCode, or a Paperspace error's status: the log keeps what people are not shown.
  const statusCode = fields.statusCode ?? fields.status;
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

/** The `error` of a failed Slack Web API call (`not_in_channel`, `ratelimited`...), or undefined for anything else. */
export function slackErrorCode(error: unknown): string | undefined {
  return describeError(error).slackError;
}

/** True for any error the Slack Web API client raised (platform error, HTTP error, rate limit, request error). */
export function isSlackApiError(error: unknown): boolean {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}
