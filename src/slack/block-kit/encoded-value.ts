// Button values, block ids and private_metadata come back from Slack as text we wrote, but a client
// can send anything there, so each is read as JSON and checked with its schema before it is trusted.
import { z } from 'zod';
import { MalformedPayloadError } from '../../errors/malformed-payload-error.js';

/**
 * The value `raw` holds once it is JSON that `schema` accepts; otherwise throws a MalformedPayloadError
 * naming `what` (e.g. "Page button value") for the person, and whether it was not JSON or what the
 * schema refused for the log.
 */
export function decodeEncodedValue<Schema extends z.ZodType>(
  schema: Schema,
  raw: string,
  what: string,
): z.output<Schema> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new MalformedPayloadError(what, `${what} is not JSON`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success)
    throw new MalformedPayloadError(what, `${what} is invalid: ${z.prettifyError(result.error)}`);
  return result.data;
}
