// Whether a failure means the database could not be reached at all (as opposed to a statement it
// refused). People are then told that nothing was done and to try again shortly, rather than given a
// reference for a bug, and the request guard answers in words instead of an empty 503.

/** Node's connection errors, and PostgreSQL's SQLSTATEs for "cannot talk to the server now". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // Class 08, connection exception; 57P01-57P03, the server shutting down or starting up; 53300, full.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** pg's own wording when the server or the pool drops or never gives a connection (no code is set). */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error/,
];

export function isStoreUnreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message)))
      return true;
    pending.push(cause);
    // Node reports a refused connection to every address of a host as one AggregateError.
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return false;
}
