// The one HTTP core every resource module calls: authentication headers, per-request timeout,
// retries of safe operations, status -> typed error, and zod parsing of every success body.
import pRetry from 'p-retry';
import { type Dispatcher, request } from 'undici';
import {
  type ApiErrorSubject,
  connectionFailureMessage,
  createApiError,
  MissingAccessTokenError,
  PaperspaceConnectionError,
  PaperspaceRateLimitError,
  PaperspaceRetryLaterError,
  PaperspaceTimeoutError,
  PaperspaceUnexpectedResponseError,
} from './errors.js';
import { parseErrorBody, parseRetryAfter, type Redactor, redactDeep } from './response-body.js';
import type { ResponseSchema } from './schemas.js';
import type { Sleep } from './sleep.js';

export interface ResponseEvent {
  operation: string;
  method: string;
  status: number | 'error';
  durationMs: number;
  attempt: number;
}

export interface HttpCoreOptions {
  apiKey: string;
  accessToken: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  dispatcher: Dispatcher | undefined;
  onResponse: ((event: ResponseEvent) => void) | undefined;
  /** The X-Request-Id of a call, read as it is made: a client may serve one request or many. */
  requestId: () => string | undefined;
  sleep: Sleep;
  random: () => number;
  now: () => number;
  redact: Redactor;
}

/** Per-call options every client method accepts as its last argument. */
export interface RequestOptions {
  /** Aborts the request (and any retry wait); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's maxRetries for this call; unsafe operations are never retried. */
  maxRetries?: number;
  /**
   * Told of every 429 an attempt of this call is answered with, retried or not: a caller pacing many
   * calls of one key slows them all down (spend/read-pace.ts) while the retry waits its Retry-After.
   */
  onRateLimited?: (error: PaperspaceRateLimitError) => void;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface HttpRequest<T> extends RequestOptions {
  /** Client operation name for metrics and errors, e.g. `machines.start`. */
  operation: string;
  /** What the request does, as a verb phrase for messages: "start this machine". */
  action: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /**
   * `apiKey` is the contract's `X-Api-Key` header; `bearerKey` is the same API key as v1 sends it
   * (`Authorization: Bearer`); `accessToken` is the GraphQL token for the contract's shared drives.
   */
  credential: 'apiKey' | 'bearerKey' | 'accessToken';
  /** Checks the success body: a zod schema, or one answered in place for valid bodies (schemas.ts). */
  schema: ResponseSchema<T>;
  /**
   * Safe to send twice: GETs, and start/stop, which the contract makes no-ops when repeated.
   * Only these are retried.
   */
  idempotent: boolean;
  /**
   * The contract does not show this operation's success body: 204, an empty body, text or any
   * JSON all mean it was done, and the schema sees `undefined`, the text or the parsed JSON.
   */
  anySuccessBody?: boolean;
  /** What a 404 is about, so the error names it. */
  subject?: ApiErrorSubject;
  /** Who may do this, from the contract's authorization rules, for 403 messages. */
  permissionHint?: string;
}

interface ApiResponse<T> {
  data: T;
  status: number;
  requestId: string | undefined;
}

export interface HttpCore {
  send<T>(request: HttpRequest<T>): Promise<ApiResponse<T>>;
}

const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;
/** Up to a quarter of each backoff is random, so many clients retrying at once spread out. */
const BACKOFF_JITTER = 0.25;
/** A Retry-After longer than this is not waited out: the caller is told when to come back instead. */
const MAX_RETRY_AFTER_MS = 60_000;

export function createHttpCore(options: HttpCoreOptions): HttpCore {
  const { sleep, redact } = options;

  function report(event: ResponseEvent) {
    try {
      options.onResponse?.(event);
    } catch {
      // A failing metrics hook must not turn a successful Paperspace call into a failure.
    }
  }

  function headersFor<T>(req: HttpRequest<T>, requestId: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.credential === 'apiKey') {
      headers['x-api-key'] = options.apiKey;
    } else if (req.credential === 'bearerKey') {
      headers.authorization = `Bearer ${options.apiKey}`;
    } else {
      headers.authorization = `Bearer ${options.accessToken}`;
    }
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (requestId) headers['x-request-id'] = requestId;
    return headers;
  }

  function urlFor<T>(req: HttpRequest<T>): string {
    const url = new URL(req.url);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async function attempt<T>(req: HttpRequest<T>, attemptNumber: number): Promise<ApiResponse<T>> {
    const requestId = options.requestId();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), options.timeoutMs);
    // Not a listener on the caller's signal: the polls of one moment share a signal (watch-poller.ts), and
    // EventTarget walks every listener on each add and remove, so a thousand polls in flight made each
    // call cost a walk of a thousand. AbortSignal.any ties the two without a listener on either.
    const signal = req.signal === undefined ? timeout.signal : AbortSignal.any([req.signal, timeout.signal]);

    let statusCode: number;
    let responseHeaders: Record<string, string | string[] | undefined>;
    let text: string;
    try {
      const response = await request(urlFor(req), {
        method: req.method,
        headers: headersFor(req, requestId),
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal,
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      });
      statusCode = response.statusCode;
      responseHeaders = response.headers;
      text = await response.body.text();
    } catch (error) {
      report({
        operation: req.operation,
        method: req.method,
        status: 'error',
        durationMs: elapsed(),
        attempt: attemptNumber,
      });
      if (req.signal?.aborted) throw req.signal.reason;
      const changesState = !req.idempotent;
      if (timeout.signal.aborted || isUndiciTimeout(error)) {
        throw new PaperspaceTimeoutError(req.operation, req.action, options.timeoutMs, {
          cause: error,
          mayHaveSucceeded: changesState,
        });
      }
      const host = new URL(req.url).host;
      throw new PaperspaceConnectionError(
        connectionFailureMessage(host, req.action, describeNetworkFailure(error), changesState),
        req.operation,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
    report({
      operation: req.operation,
      method: req.method,
      status: statusCode,
      durationMs: elapsed(),
      attempt: attemptNumber,
    });
    if (req.onRateLimited === undefined || statusCode !== 429)
      return interpret(req, statusCode, responseHeaders, text, requestId);
    try {
      return interpret(req, statusCode, responseHeaders, text, requestId);
    } catch (error) {
      if (error instanceof PaperspaceRateLimitError) req.onRateLimited(error);
      throw error;
    }
  }

  function interpret<T>(
    req: HttpRequest<T>,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    text: string,
    sentRequestId: string | undefined,
  ): ApiResponse<T> {
    const requestId = firstHeader(headers['x-request-id']) ?? sentRequestId;
    // What an error says about the call: built only for one, not for every answer that succeeds.
    const details = () => ({
      operation: req.operation,
      action: req.action,
      status,
      requestId,
      ...(req.subject ? { subject: req.subject } : {}),
      ...(req.permissionHint ? { permissionHint: req.permissionHint } : {}),
      credential: req.credential === 'accessToken' ? ('access token' as const) : ('API key' as const),
      changesState: !req.idempotent,
    });

    if (status < 200 || status >= 300) {
      const parsed = parseErrorBody(text, redact);
      const retryAfterMs =
        status === 429 || status === 503
          ? parseRetryAfter(firstHeader(headers['retry-after']), options.now())
          : undefined;
      throw createApiError({
        ...details(),
        body: parsed.body,
        ...(parsed.serverMessage !== undefined ? { serverMessage: parsed.serverMessage } : {}),
        ...(parsed.bodyStatus !== undefined ? { bodyStatus: parsed.bodyStatus } : {}),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
    }

    const unexpected = (problem: string, body: unknown) =>
      new PaperspaceUnexpectedResponseError({ ...details(), body: redactDeep(body, redact) }, problem);

    let value: unknown;
    if (text.trim() === '') {
      if (!req.anySuccessBody) throw unexpected('an empty body', undefined);
      value = undefined;
    } else {
      try {
        value = JSON.parse(text);
      } catch {
        if (!req.anySuccessBody)
          throw unexpected('a body that is not JSON', parseErrorBody(text, redact).body);
        value = text;
      }
    }

    const result = req.schema.safeParse(value);
    if (!result.success) {
      const summary = result.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
        .join('; ');
      throw unexpected(`data the client does not understand (${summary})`, value);
    }
    return { data: result.data, status, requestId };
  }

  /**
   * Backoff before retry number `retriesConsumed + 1`, or undefined when `error` must not be retried:
   * connection failures, timeouts, 429 and 5xx are transient; every other failure is final.
   */
  function retryDelay(error: unknown, retriesConsumed: number): number | undefined {
    const transient =
      error instanceof PaperspaceConnectionError || error instanceof PaperspaceRetryLaterError;
    if (!transient) return undefined;
    const retryAfterMs = error instanceof PaperspaceRetryLaterError ? error.retryAfterMs : undefined;
    if (retryAfterMs !== undefined) return retryAfterMs <= MAX_RETRY_AFTER_MS ? retryAfterMs : undefined;
    const ceiling = Math.min(BACKOFF_BASE_MS * 2 ** retriesConsumed, BACKOFF_MAX_MS);
    return Math.round(ceiling * (1 - BACKOFF_JITTER * options.random()));
  }

  return {
    async send(req) {
      req.signal?.throwIfAborted();
      if (req.credential === 'accessToken' && !options.accessToken) {
        throw new MissingAccessTokenError(req.operation, req.action);
      }
      const retries = req.idempotent ? (req.maxRetries ?? options.maxRetries) : 0;
      if (retries <= 0) return attempt(req, 1);
      // Nearly every call succeeds at once, and p-retry costs CPU (and garbage) per call even then, a
      // noticeable share of a call's own. So the first attempt is made here; only when it fails does
      // p-retry run, its first attempt answering with that same failure, so everything after it goes
      // as before.
      let firstFailure: unknown;
      try {
        const answer = await attempt(req, 1);
        // As p-retry does after a successful attempt: a call its caller gave up on meanwhile is not answered.
        req.signal?.throwIfAborted();
        return answer;
      } catch (error) {
        firstFailure = error;
      }
      return pRetry(
        (attemptNumber) => (attemptNumber === 1 ? Promise.reject(firstFailure) : attempt(req, attemptNumber)),
        {
          retries,
          signal: req.signal,
          // p-retry draws its delay from Math.random and setTimeout and cannot take a per-error delay,
          // so Retry-After, the injected sleep and the injected jitter source would be lost. Its own
          // delay is therefore zero, and shouldRetry, the last hook before the next attempt, waits
          // the delay chosen here. p-retry still owns the loop, the retry budget and abort handling.
          minTimeout: 0,
          shouldRetry: async ({ error, retriesConsumed }) => {
            const delay = retryDelay(error, retriesConsumed);
            if (delay === undefined) return false;
            await sleep(delay, req.signal);
            return true;
          },
        },
      );
    },
  };
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT'
  );
}

/** A short, secret-free reason: the system error code when there is one. */
function describeNetworkFailure(error: unknown): string {
  const withCode = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = withCode?.code ?? withCode?.cause?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : 'the connection failed';
}
