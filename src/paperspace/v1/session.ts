// `GET /auth/session`: who a v1 key belongs to and whether they administer its team. Asked once per
// client (every call of a client carries the same key), and forgotten if it fails so a retry asks again.
import { PaperspaceUnknownKeyError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import type { Identity } from '../resources.js';
import type { V1Context } from './context.js';
import { type V1Session, v1SessionAnswerSchema } from './wire.js';

export function createSessionReader(core: V1Context['core'], url: V1Context['url']) {
  let pending: Promise<V1Session> | undefined;
  const operation = 'account.session';
  const action = 'check who this API key belongs to';
  return (options?: RequestOptions): Promise<V1Session> => {
    pending ??= core
      .send({
        ...options,
        operation,
        action,
        method: 'GET',
        url: url('/auth/session'),
        credential: 'bearerKey',
        schema: v1SessionAnswerSchema,
        idempotent: true,
      })
      .then((response) => {
        // A 200 with null: nobody is logged in with this key. Every other call would answer 401.
        if (response.data === null) throw new PaperspaceUnknownKeyError(operation, action);
        return response.data;
      })
      .catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
    return pending;
  };
}

export function identityOf(session: V1Session): Identity {
  const { user, team } = session;
  const membership = user.teamMemberships?.find((entry) => entry.team.id === team.id);
  return {
    userId: user.id,
    email: user.email,
    teamId: team.id,
    isAdmin: membership ? membership.isAdmin || membership.isOwner : false,
  };
}
