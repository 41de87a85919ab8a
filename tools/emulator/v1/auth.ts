// v1 authentication: `Authorization: Bearer <API key>`, with the same keys the contract takes in
// X-Api-Key. X-Api-Key itself is refused here, so a client that mixes the dialects finds out at once.
// Resource delegation tokens do not exist in v1 and are not accepted.
import type { IncomingHttpHeaders } from 'node:http';
import { apiKeyOf, bearerToken } from '../auth.js';
import { EmulatorError } from '../errors.js';
import type { UserRecord } from '../records.js';
import type { EmulatorCore } from '../world.js';

const unauthorized = (message: string) => new EmulatorError(401, message);

export function authenticateV1(core: EmulatorCore, headers: IncomingHttpHeaders): UserRecord {
  const token = bearerToken(headers);
  if (token === null) {
    throw unauthorized(
      apiKeyOf(headers) === null
        ? 'No API key given: send Authorization: Bearer <API key>'
        : 'X-Api-Key is not accepted by /v1: send the key as Authorization: Bearer <API key>',
    );
  }
  const user = findV1User(core, headers);
  if (!user) throw unauthorized('Invalid API key');
  return user;
}

/** The user whose key the request carries as a Bearer token; undefined for none or an unknown one. */
export function findV1User(core: EmulatorCore, headers: IncomingHttpHeaders): UserRecord | undefined {
  const token = bearerToken(headers);
  if (token === null) return undefined;
  return core.world.users.withApiKey(token);
}
