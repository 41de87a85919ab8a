// Routing for the REST interface: a route names its method, path pattern (`:name` segments) and who
// may call it; its handler gets the authenticated caller and answers a Reply or throws an
// EmulatorError.
import type { z } from 'zod';
import type { Caller } from './auth.js';
import { badRequest } from './errors.js';
import type { EmulatorCore } from './world.js';

export interface RequestContext {
  readonly core: EmulatorCore;
  readonly caller: Caller;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

/** A reply without a body is sent as an empty body (204 for stop, destroy and script destroy). */
export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** `delegated`: also callable with a resource delegation's token (machine reads only). */
type RouteAccess = 'user' | 'delegated';

export interface Route {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly access: RouteAccess;
  readonly handle: (context: RequestContext) => Reply;
}

export const json = (body: unknown, status = 200): Reply => ({ status, body });
export const noContent = (): Reply => ({ status: 204 });

export type RouteMatch<R = Route> =
  | { readonly kind: 'found'; readonly route: R; readonly params: Record<string, string> }
  | { readonly kind: 'missing' };

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`Malformed percent-encoding in path segment "${segment}"`);
  }
}

/** Works for both dialects' route tables: a route needs only its method and path pattern. */
export function matchRoute<R extends { readonly method: string; readonly path: string }>(
  routes: readonly R[],
  method: string,
  pathname: string,
): RouteMatch<R> {
  const segments = pathname.split('/').filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, index) => {
      const segment = segments[index] ?? '';
      if (part.startsWith(':')) {
        params[part.slice(1)] = decodePathSegment(segment);
        return true;
      }
      return part === segment;
    });
    if (matches) return { kind: 'found', route, params };
  }
  return { kind: 'missing' };
}

/** Validates a JSON body; the 400 names the offending parameter. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw badRequest(`${path}${issue?.message ?? 'invalid request body'}`);
}
