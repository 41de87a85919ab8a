// `GET /auth/session`: who a v1 key belongs to and whether they administer its team. Asked once per
// client (every call of a client carries the same key), and forgotten if it fails so a retry asks again.
import type { RequestOptions } from '../http.js';
import type { Identity } from '../resources.js';
import type { V1Context } from './context.js';
import { type V1Session, v1SessionSchema } from './wire.js';

export function createSessionReader(core: V1Context['core'], url: V1Context['url']) {
  let pending: Promise<V1Session> | undefined;
  return (options?: RequestOptions): Promise<V1Session> => {
    pending ??= core
      .send({
        ...options,
        operation: 'account.session',
        action: 'check who this API key belongs to',
        method: 'GET',
        url: url('/auth/session'),
        credential: 'bearerKey',
        schema: v1SessionSchema,
        idempotent: true,
      })
      .then((response) => response.data)
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
