// GraphQL calls over the HTTP core: POST {query, variables} with the Bearer access token, then the
// `errors` array turned into the same typed errors as REST failures before `data` is parsed.
import type { z } from 'zod';
import {
  type ApiErrorDetails,
  type ApiErrorSubject,
  type PaperspaceApiError,
  PaperspaceAuthenticationError,
  PaperspaceBadRequestError,
  PaperspaceGraphqlError,
  PaperspaceNotFoundError,
  PaperspacePermissionError,
  PaperspaceUnexpectedResponseError,
} from './errors.js';
import type { HttpCore, RequestOptions } from './http.js';
import { type Redactor, redactDeep } from './response-body.js';
import { type GraphqlError, graphqlEnvelopeSchema } from './schemas.js';

interface GraphqlCall<T> extends RequestOptions {
  operation: string;
  action: string;
  query: string;
  variables: Record<string, unknown>;
  dataSchema: z.ZodType<T>;
  /** Queries may be retried; mutations never. */
  idempotent: boolean;
  subject?: ApiErrorSubject;
  permissionHint?: string;
}

export type GraphqlCaller = <T>(call: GraphqlCall<T>) => Promise<T>;

export function createGraphqlCaller(deps: {
  core: HttpCore;
  graphqlUrl: string;
  redact: Redactor;
}): GraphqlCaller {
  return async (call) => {
    const response = await deps.core.send({
      operation: call.operation,
      action: call.action,
      method: 'POST',
      url: deps.graphqlUrl,
      body: { query: call.query, variables: call.variables },
      credential: 'accessToken',
      schema: graphqlEnvelopeSchema,
      idempotent: call.idempotent,
      ...(call.signal ? { signal: call.signal } : {}),
      ...(call.maxRetries !== undefined ? { maxRetries: call.maxRetries } : {}),
      ...(call.subject ? { subject: call.subject } : {}),
      ...(call.permissionHint ? { permissionHint: call.permissionHint } : {}),
    });
    const details: ApiErrorDetails = {
      operation: call.operation,
      action: call.action,
      status: response.status,
      // Kept on errors, which get logged: strip any echoed credential first.
      body: redactDeep(response.data, deps.redact),
      requestId: response.requestId,
      credential: 'access token',
      changesState: !call.idempotent,
      ...(call.subject ? { subject: call.subject } : {}),
      ...(call.permissionHint ? { permissionHint: call.permissionHint } : {}),
    };
    const errors = response.data.errors ?? [];
    if (errors.length > 0) throw graphqlFailure(details, errors, deps.redact);

    const data = call.dataSchema.safeParse(response.data.data);
    if (!data.success) {
      const summary = data.error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`)
        .join('; ');
      throw new PaperspaceUnexpectedResponseError(
        details,
        `data the client does not understand (${summary})`,
      );
    }
    return data.data;
  };
}

/**
 * GraphQL reports failures inside a 200 answer, so the class comes from the error's code or words.
 * `status` is set to the HTTP status those words mean (403, 401, 404, 400) so callers can treat
 * REST and GraphQL failures alike; the server's own message is kept.
 */
function graphqlFailure(
  details: ApiErrorDetails,
  errors: readonly GraphqlError[],
  redact: Redactor,
): PaperspaceApiError {
  const entries = errors.map((entry) => ({ ...entry, message: redact(entry.message) }));
  const serverMessage = entries
    .map((entry) => entry.message.trim())
    .filter(Boolean)
    .join('; ');
  const withMessage = { ...details, ...(serverMessage ? { serverMessage } : {}) };
  const codes = entries.map((entry) => String(entry.extensions?.code ?? '').toUpperCase());
  const words = serverMessage.toLowerCase();

  if (
    codes.includes('FORBIDDEN') ||
    /not authori[sz]ed|forbidden|permission|not allowed|access denied/.test(words)
  ) {
    return new PaperspacePermissionError({ ...withMessage, status: 403 });
  }
  if (
    codes.includes('UNAUTHENTICATED') ||
    /unauthenticated|not authenticated|invalid (access )?token/.test(words)
  ) {
    return new PaperspaceAuthenticationError({ ...withMessage, status: 401 });
  }
  if (codes.includes('NOT_FOUND') || /not found|does not exist/.test(words)) {
    return new PaperspaceNotFoundError({ ...withMessage, status: 404 });
  }
  if (codes.includes('BAD_USER_INPUT') || codes.includes('GRAPHQL_VALIDATION_FAILED')) {
    return new PaperspaceBadRequestError({ ...withMessage, status: 400 });
  }
  return new PaperspaceGraphqlError(withMessage, entries);
}
