// v1's error body as its OpenAPI's `error` response has it: `{ code, message, details? }` and nothing
// else (additionalProperties: false). The OpenAPI types `code` only as a string; the names per status
// are those of Paperspace's v1 answers (tRPC's error codes). The world's rules throw EmulatorError whichever
// dialect is speaking; only the body they turn into differs.
import type { z } from 'zod';
import { EmulatorError } from '../errors.js';

const CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

function v1ErrorCode(status: number): string {
  return CODES[status] ?? (status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
}

/** A 400 that lists every problem of a request body, in `details` (the one free-form field). */
class V1ValidationError extends EmulatorError {
  constructor(
    message: string,
    readonly issues: ReadonlyArray<{ readonly message: string }>,
  ) {
    super(400, message);
  }
}

export function v1ErrorBody(error: EmulatorError): unknown {
  return {
    code: v1ErrorCode(error.status),
    message: error.message,
    ...(error instanceof V1ValidationError ? { details: { issues: error.issues } } : {}),
  };
}

/** Validates a JSON body; the message names the first bad field and `details.issues` lists them all. */
export function parseV1Body<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    message: `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`,
  }));
  throw new V1ValidationError(issues[0]?.message ?? 'Invalid request body', issues);
}
