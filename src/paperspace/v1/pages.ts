// v1 lists are cursor pages: `{items, hasMore, nextPage}`, asked again with `after=nextPage` while
// hasMore. A page may hold fewer items than asked, so only hasMore says whether more follow.
import type { z } from 'zod';
import type { QueryValue, RequestOptions } from '../http.js';
import type { V1Context } from './context.js';
import { v1PageSchema } from './wire.js';

/** The largest page v1 serves (`limit` 1-120): fewer round trips for a team with many machines. */
const V1_PAGE_LIMIT = 120;

export interface V1ListRequest<Item extends z.ZodType> extends RequestOptions {
  operation: string;
  action: string;
  path: string;
  query?: Record<string, QueryValue>;
  item: Item;
}

/**
 * Each page's items in turn. A page is asked for only when the one before it has been taken, so a
 * caller that has read enough (events back to the start of a month) stops the walk by leaving.
 */
export async function* v1ItemPages<Item extends z.ZodType>(
  { core, url }: V1Context,
  request: V1ListRequest<Item>,
): AsyncGenerator<z.output<Item>[]> {
  const { operation, action, path, query, item, ...options } = request;
  const schema = v1PageSchema(item);
  const seenCursors = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const response = await core.send({
      ...options,
      operation,
      action,
      method: 'GET',
      url: url(path),
      query: { ...query, limit: V1_PAGE_LIMIT, after },
      credential: 'bearerKey',
      schema,
      idempotent: true,
    });
    yield response.data.items as z.output<Item>[];
    const next = response.data.nextPage ?? undefined;
    // A server that says "more" without a new cursor would otherwise be asked for the same page forever.
    if (!response.data.hasMore || next === undefined || seenCursors.has(next)) return;
    seenCursors.add(next);
    after = next;
  }
}

export async function* v1Pages<Item extends z.ZodType>(
  context: V1Context,
  request: V1ListRequest<Item>,
): AsyncGenerator<z.output<Item>> {
  for await (const items of v1ItemPages(context, request)) yield* items;
}

/** Every item of a v1 list, mapped into the domain. */
export async function v1All<Item extends z.ZodType, Out>(
  context: V1Context,
  request: V1ListRequest<Item>,
  map: (item: z.output<Item>) => Out,
): Promise<Out[]> {
  const items: Out[] = [];
  for await (const item of v1Pages(context, request)) items.push(map(item));
  return items;
}
