// Errors the emulator answers with, in the shapes the real API uses (see DESIGN.md, "Facts about the
// real API"): most failures are nested under `error`; authentication failures are flat.

/** `nested`: {"error":{"name":"Error","status":404,"message":"..."}}; `flat`: {"status":401,"message":"..."}. */
export type ErrorShape = 'nested' | 'flat';

export class EmulatorError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly shape: ErrorShape = 'nested',
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'EmulatorError';
  }
}

export const badRequest = (message: string) => new EmulatorError(400, message);
export const unauthorized = (message: string) => new EmulatorError(401, message, 'flat');
export const forbidden = (message: string) => new EmulatorError(403, message);
export const notFound = (message: string) => new EmulatorError(404, message);
export const conflict = (message: string) => new EmulatorError(409, message);
export const internalError = (message: string) => new EmulatorError(500, message);

export function tooManyRequests(retryAfterSeconds: number): EmulatorError {
  return new EmulatorError(429, 'Too many requests, slow down', 'nested', {
    'Retry-After': String(retryAfterSeconds),
  });
}

/** Builds an error of any status in the shape the real API would use for it. */
export function errorWithStatus(status: number, message: string): EmulatorError {
  return new EmulatorError(status, message, status === 401 ? 'flat' : 'nested');
}

export function restErrorBody(error: EmulatorError): unknown {
  if (error.shape === 'flat') return { status: error.status, message: error.message };
  return { error: { name: 'Error', status: error.status, message: error.message } };
}

const GRAPHQL_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  429: 'RATE_LIMITED',
};

export function graphqlErrorCode(status: number): string {
  return GRAPHQL_CODES[status] ?? 'INTERNAL_SERVER_ERROR';
}

/** A failure that happens before GraphQL runs (authentication, injected faults), as an `errors` array. */
export function graphqlErrorBody(error: EmulatorError): unknown {
  return {
    errors: [
      { message: error.message, extensions: { code: graphqlErrorCode(error.status), status: error.status } },
    ],
  };
}
