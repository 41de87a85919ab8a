// Every failure the Paperspace client can produce, as a typed error whose `message` is a sentence a
// person can act on. The Slack layer shows `message` as is, so no message (and no field a logger
// might print) ever carries an API key or access token: the HTTP core redacts them from server text
// before any of these classes sees it. waitForState's own endings are in wait-errors.ts.

/** One problem with a request, found before anything was sent. */
export interface RequestIssue {
  field: string;
  message: string;
}

/** The root of everything this client throws on purpose. */
export class PaperspaceError extends Error {
  override name = 'PaperspaceError';
  /** The client operation that failed, e.g. `machines.start`. */
  readonly operation: string;

  constructor(message: string, operation: string, options?: { cause?: unknown }) {
    super(message, options);
    this.operation = operation;
  }
}

/** The request was refused by the client itself: nothing was sent. */
export class RequestValidationError extends PaperspaceError {
  override name = 'RequestValidationError';
  readonly issues: readonly RequestIssue[];

  constructor(operation: string, action: string, issues: readonly RequestIssue[]) {
    const details = issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
    super(`Cannot ${action}: ${details}.`, operation);
    this.issues = issues;
  }
}

/** Shared-drive operations use a GraphQL access token, and none was given to the client. */
export class MissingAccessTokenError extends PaperspaceError {
  override name = 'MissingAccessTokenError';

  constructor(operation: string, action: string) {
    super(
      `Cannot ${action}: shared drives need a Paperspace access token and none is linked. ` +
        'Link one with /ps login.',
      operation,
    );
  }
}

/** What a 404 was about, so its message can name it. */
export interface ApiErrorSubject {
  kind: string;
  id: string;
}

export interface ApiErrorDetails {
  operation: string;
  /** What the client was doing, as a verb phrase: "start this machine". */
  action: string;
  status: number;
  /** The parsed JSON body, or the (trimmed, redacted) text when the body is not JSON. */
  body: unknown;
  /** The server's own message, when the body carried one. */
  serverMessage?: string;
  /** The `status` inside the body, which can differ from the HTTP status. */
  bodyStatus?: number;
  requestId?: string;
  subject?: ApiErrorSubject;
  retryAfterMs?: number;
  /** Which credential the request carried, to say which one was rejected. */
  credential?: 'API key' | 'access token';
  /** Who may perform the operation, per the contract's authorization rules. */
  permissionHint?: string;
  /** The request changes something (create, restart, ...), so a garbled answer may hide a success. */
  changesState?: boolean;
}

/** Said after a failure that may have happened after Paperspace acted on a change. */
const MAY_HAVE_SUCCEEDED = 'It may have been done anyway: check before repeating it.';

/** Paperspace answered, and the answer was a failure. */
export class PaperspaceApiError extends PaperspaceError {
  override name = 'PaperspaceApiError';
  readonly status: number;
  readonly body: unknown;
  readonly bodyStatus: number | undefined;
  readonly serverMessage: string | undefined;
  readonly requestId: string | undefined;
  /**
   * The request parameter (by the domain's name, e.g. `size`) the refusal is about, where the dialect
   * can tell from the wire name Paperspace quoted (v1's `diskSize`); forms show the refusal under it.
   */
  parameter: string | undefined;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details.operation);
    this.status = details.status;
    this.body = details.body;
    this.bodyStatus = details.bodyStatus;
    this.serverMessage = details.serverMessage;
    this.requestId = details.requestId;
  }
}

const because = (details: ApiErrorDetails) => (details.serverMessage ? `: ${details.serverMessage}` : '');

/** 400 or 422: Paperspace found the request invalid. */
export class PaperspaceBadRequestError extends PaperspaceApiError {
  override name = 'PaperspaceBadRequestError';

  constructor(details: ApiErrorDetails) {
    super(
      `Paperspace rejected the request to ${details.action}${because(details)}. ` +
        'Check the values and try again.',
      details,
    );
  }
}

/** 401: the credential is unknown, revoked or malformed. */
export class PaperspaceAuthenticationError extends PaperspaceApiError {
  override name = 'PaperspaceAuthenticationError';

  constructor(details: ApiErrorDetails) {
    const credential = details.credential ?? 'API key';
    super(
      `Paperspace rejected the ${credential} while trying to ${details.action}. ` +
        `Link a new ${credential} with /ps login.`,
      details,
    );
  }
}

/**
 * v1's `GET /auth/session` answered 200 with `null`: the OpenAPI's way of saying nobody is logged in
 * with this key (mistyped, revoked, or from another product). It is a 401 by another name, so it is
 * one: everything that handles a rejected key handles it.
 */
export class PaperspaceUnknownKeyError extends PaperspaceAuthenticationError {
  override name = 'PaperspaceUnknownKeyError';

  constructor(operation: string, action: string) {
    super({ operation, action, status: 200, body: null, credential: 'API key' });
    this.message =
      `Paperspace does not know this API key: it answered that nobody is logged in with it while ` +
      `trying to ${action}. Link a valid API key with /ps login.`;
  }
}

/** 403: the credential is fine but its owner may not do this. */
export class PaperspacePermissionError extends PaperspaceApiError {
  override name = 'PaperspacePermissionError';

  constructor(details: ApiErrorDetails) {
    const hint =
      details.permissionHint && !saysAlready(details.serverMessage, details.permissionHint)
        ? ` ${details.permissionHint}`
        : '';
    super(`Paperspace does not allow your account to ${details.action}${because(details)}.${hint}`, details);
  }
}

/**
 * Whether the server's own message already says what `sentence` says, so a message need not repeat
 * it: "Only the machine's owner can start it" and our "Only the machine's owner can start, stop or
 * restart it." are one rule said twice. Most of the hint's words appearing in the server's message
 * counts as saying it; a bare "Forbidden" does not, and then the hint is what helps.
 */
function saysAlready(serverMessage: string | undefined, sentence: string): boolean {
  if (serverMessage === undefined) return false;
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .map((word) => word.replace(/'s$/, ''))
      .filter((word) => word.length > 3);
  const said = new Set(words(serverMessage));
  const hint = words(sentence);
  return hint.length > 0 && hint.filter((word) => said.has(word)).length * 2 >= hint.length;
}

/** 404: what the request named does not exist, or the caller cannot see it. */
export class PaperspaceNotFoundError extends PaperspaceApiError {
  override name = 'PaperspaceNotFoundError';
  readonly subject: ApiErrorSubject | undefined;

  constructor(details: ApiErrorDetails) {
    const message = details.subject
      ? `Paperspace has no ${details.subject.kind} with id "${details.subject.id}" that your account can see. ` +
        'Check the id and try again.'
      : `Paperspace could not find what was needed to ${details.action}${because(details)}.`;
    super(message, details);
    this.subject = details.subject;
  }
}

/** 409: the request clashes with the resource's current state. */
export class PaperspaceConflictError extends PaperspaceApiError {
  override name = 'PaperspaceConflictError';

  constructor(details: ApiErrorDetails) {
    super(
      `Paperspace could not ${details.action} because of a conflict${because(details)}. ` +
        'Check its current state and try again.',
      details,
    );
  }
}

/** "in 30s" when Paperspace said when to come back (Retry-After), "in a minute" when it did not. */
function whenToRetry(retryAfterMs: number | undefined): string {
  return retryAfterMs === undefined ? 'in a minute' : `in ${formatDuration(retryAfterMs)}`;
}

/**
 * A failure Paperspace expects to pass (429, 5xx). `retryAfterMs` is when it said to come back
 * (Retry-After), if it said: the client's retries and waitForState wait that long.
 */
export abstract class PaperspaceRetryLaterError extends PaperspaceApiError {
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** 429: too many requests. */
export class PaperspaceRateLimitError extends PaperspaceRetryLaterError {
  override name = 'PaperspaceRateLimitError';

  constructor(details: ApiErrorDetails) {
    const when = whenToRetry(details.retryAfterMs);
    super(`Paperspace is limiting requests and did not ${details.action}. Try again ${when}.`, details);
  }
}

/** 5xx: Paperspace failed (a 503 may say when to come back). */
export class PaperspaceServerError extends PaperspaceRetryLaterError {
  override name = 'PaperspaceServerError';

  constructor(details: ApiErrorDetails) {
    const when = whenToRetry(details.retryAfterMs);
    super(
      `Paperspace had an internal problem while trying to ${details.action}${because(details)}. ` +
        // A change that is never retried automatically may still have been applied before the failure.
        (details.changesState ? `${MAY_HAVE_SUCCEEDED} Try again ${when} if not.` : `Try again ${when}.`),
      details,
    );
  }
}

export interface GraphqlErrorEntry {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/** A GraphQL answer whose `errors` array did not map to a more specific class. */
export class PaperspaceGraphqlError extends PaperspaceApiError {
  override name = 'PaperspaceGraphqlError';
  readonly errors: readonly GraphqlErrorEntry[];

  constructor(details: ApiErrorDetails, errors: readonly GraphqlErrorEntry[]) {
    super(`Paperspace could not ${details.action}${because(details)}.`, details);
    this.errors = errors;
  }
}

/** Paperspace answered with success, but with a body the client cannot rely on. */
export class PaperspaceUnexpectedResponseError extends PaperspaceApiError {
  override name = 'PaperspaceUnexpectedResponseError';

  constructor(details: ApiErrorDetails, problem: string) {
    const advice = details.changesState
      ? MAY_HAVE_SUCCEEDED
      : 'This is probably a change on their side; try again later.';
    super(`Paperspace answered the request to ${details.action} with ${problem}. ${advice}`, details);
  }
}

/** No answer: DNS, refused or reset connection, TLS failure. */
export class PaperspaceConnectionError extends PaperspaceError {
  override name = 'PaperspaceConnectionError';
}

/**
 * The message for a failed connection. A refused connection or an unknown host means nothing was
 * sent; any other failure (a reset, say) may have come after Paperspace received a change.
 */
export function connectionFailureMessage(
  host: string,
  action: string,
  reason: string,
  changesState: boolean,
): string {
  const neverSent = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'].includes(
    reason,
  );
  const advice = changesState && !neverSent ? MAY_HAVE_SUCCEEDED : 'Check the network and try again.';
  return `Could not reach Paperspace (${host}) while trying to ${action}: ${reason}. ${advice}`;
}

/** No complete answer within the client's per-request timeout. */
export class PaperspaceTimeoutError extends PaperspaceConnectionError {
  override name = 'PaperspaceTimeoutError';
  readonly timeoutMs: number;

  constructor(
    operation: string,
    action: string,
    timeoutMs: number,
    options?: { cause?: unknown; mayHaveSucceeded?: boolean },
  ) {
    const advice = options?.mayHaveSucceeded
      ? MAY_HAVE_SUCCEEDED
      : 'It may be slow right now; try again shortly.';
    super(
      `Paperspace did not answer within ${formatDuration(timeoutMs)} while trying to ${action}. ${advice}`,
      operation,
      { cause: options?.cause },
    );
    this.timeoutMs = timeoutMs;
  }
}

/** Maps an HTTP failure status to its error class. The HTTP status decides, not the body's. */
export function createApiError(details: ApiErrorDetails): PaperspaceApiError {
  const { status } = details;
  if (status === 400 || status === 422) return new PaperspaceBadRequestError(details);
  if (status === 401) return new PaperspaceAuthenticationError(details);
  if (status === 403) return new PaperspacePermissionError(details);
  if (status === 404) return new PaperspaceNotFoundError(details);
  if (status === 409) return new PaperspaceConflictError(details);
  if (status === 429) return new PaperspaceRateLimitError(details);
  if (status >= 500) return new PaperspaceServerError(details);
  return new PaperspaceApiError(`Paperspace refused to ${details.action}${because(details)}.`, details);
}

/** "45 s", "2 min", "1 h 30 min": short enough for a Slack message. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return ms > 0 && ms < 1000 ? `${Math.round(ms)} ms` : `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}
