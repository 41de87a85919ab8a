// Answers one request under `/v1`: route, authenticate with the Bearer key, run the handler.
// Faults, body reading and latency happen in server.ts for both dialects alike.
import type { IncomingHttpHeaders } from 'node:http';
import { EmulatorError } from '../errors.js';
import { json, matchRoute, type Reply } from '../router.js';
import type { EmulatorCore } from '../world.js';
import { authenticateV1, findV1User } from './auth.js';
import type { PageOptions } from './paging.js';
import { V1_ROUTES } from './routes.js';

export const V1_PREFIX = '/v1';

export function isV1Path(pathname: string): boolean {
  return pathname === V1_PREFIX || pathname.startsWith(`${V1_PREFIX}/`);
}

export interface V1Request {
  readonly method: string;
  readonly pathname: string;
  readonly headers: IncomingHttpHeaders;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

export function answerV1(core: EmulatorCore, request: V1Request, paging: PageOptions): Reply {
  const path = request.pathname.slice(V1_PREFIX.length) || '/';
  const match = matchRoute(V1_ROUTES, request.method, path);
  if (match.kind === 'missing') {
    throw new EmulatorError(404, `No such endpoint: ${request.method} ${request.pathname}`);
  }
  // `GET /auth/session` is the one operation that answers a key nobody is logged in with: the
  // OpenAPI says "if a user is not logged in, this will be null", a 200 and not a 401.
  if (path === '/auth/session' && findV1User(core, request.headers) === undefined) return json(null);
  const user = authenticateV1(core, request.headers);
  return match.route.handle({
    core,
    user,
    params: match.params,
    query: request.query,
    body: request.body,
    paging,
  });
}
