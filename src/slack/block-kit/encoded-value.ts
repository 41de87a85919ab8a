// Button values, block ids and private_metadata come back from Slack as text we wrote, but a client
// can send anything there, so each is read as JSON and checked with its schema before it is trusted.
import { z } from 'zod';

/**
 * The value `raw` holds once it is JSON that `schema` accepts; otherwise throws an error that starts
 * with `what` (e.g. "Page button value") and says whether it was not JSON or what the schema refused.
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
    throw new Error(`${what} is not JSON`);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new Error(`${what} is invalid: ${z.prettifyError(result.error)}`);
  return result.data;
}
