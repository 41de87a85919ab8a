// v1's cursor pages: `limit` (1-120), `after`, `orderBy`, `order`, answered as
// `{ items, hasMore, nextPage }`. A cursor remembers the last item's sort value and key, so items
// added or deleted between two requests neither repeat nor vanish from the rest of the walk.
// With short pages on (the default), every page after the first holds one item fewer than asked,
// as real v1 pages may: a client that stops at the first page shorter than `limit` misses items.
import { badRequest } from '../errors.js';

const DEFAULT_PAGE_LIMIT = 20;
const MAX_PAGE_LIMIT = 120;

type SortValue = string | number;

export interface PageSpec<T> {
  /** The fields the typings allow in `orderBy`, first one the default. */
  readonly orderBy: Readonly<Record<string, (item: T) => SortValue>>;
  /** Unique and stable per item: breaks ties between equal sort values. */
  readonly key: (item: T) => string;
  /** Filters the typings allow (equality on a query parameter); anything else answers 400. */
  readonly filters?: Readonly<Record<string, (item: T, value: string) => boolean>>;
}

export interface PageOptions {
  readonly shortPages: boolean;
}

export interface Page<T> {
  readonly items: T[];
  readonly hasMore: boolean;
  readonly nextPage: string | null;
}

interface Cursor {
  readonly orderBy: string;
  readonly order: 'asc' | 'desc';
  readonly value: SortValue;
  readonly key: string;
}

const PAGING_PARAMETERS = ['limit', 'after', 'orderBy', 'order'];

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (
      typeof cursor.orderBy === 'string' &&
      (cursor.order === 'asc' || cursor.order === 'desc') &&
      (typeof cursor.value === 'string' || typeof cursor.value === 'number') &&
      typeof cursor.key === 'string'
    ) {
      return cursor as Cursor;
    }
  } catch {
    // Falls through to the 400 below: anything that does not decode is not one of our cursors.
  }
  throw badRequest(`after: "${text}" is not a cursor this API answered with (use nextPage as it is)`);
}

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

function readLimit(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return DEFAULT_PAGE_LIMIT;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw badRequest(`limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}, got "${raw}"`);
  }
  return limit;
}

/** One page of `all`, ordered and filtered as the query asks; extra names in `otherParameters` are allowed. */
export function paginate<T>(
  all: readonly T[],
  query: URLSearchParams,
  spec: PageSpec<T>,
  options: PageOptions,
  otherParameters: readonly string[] = [],
): Page<T> {
  const filters = spec.filters ?? {};
  const allowed = [...PAGING_PARAMETERS, ...Object.keys(filters), ...otherParameters];
  for (const name of query.keys()) {
    if (!allowed.includes(name))
      throw badRequest(`Unknown query parameter "${name}"; allowed: ${allowed.join(', ')}`);
  }
  const orderByNames = Object.keys(spec.orderBy);
  const orderBy = query.get('orderBy') ?? orderByNames[0] ?? '';
  const sortValue = spec.orderBy[orderBy];
  if (!sortValue) throw badRequest(`orderBy must be one of ${orderByNames.join(', ')}, got "${orderBy}"`);
  // The OpenAPI's default for every list it orders: newest (or last by name) first.
  const order = query.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw badRequest(`order must be asc or desc, got "${order}"`);
  const limit = readLimit(query);
  const direction = order === 'asc' ? 1 : -1;
  const byPosition = (a: { value: SortValue; key: string }, b: { value: SortValue; key: string }) =>
    direction * (compare(a.value, b.value) || compare(a.key, b.key));

  const matching = all
    .filter((item) =>
      Object.entries(filters).every(([name, matches]) => {
        const value = query.get(name);
        return value === null || matches(item, value);
      }),
    )
    .map((item) => ({ item, value: sortValue(item), key: spec.key(item) }))
    .sort(byPosition);

  const after = query.get('after');
  let rest = matching;
  let pageSize = limit;
  if (after !== null && after !== '') {
    const cursor = decodeCursor(after);
    if (cursor.orderBy !== orderBy || cursor.order !== order) {
      throw badRequest(
        `after: this cursor belongs to a listing ordered by ${cursor.orderBy} ${cursor.order}; ask with the same orderBy and order`,
      );
    }
    rest = matching.filter((entry) => byPosition(entry, cursor) > 0);
    if (options.shortPages && limit > 1) pageSize = limit - 1;
  }
  const page = rest.slice(0, pageSize);
  const last = page.at(-1);
  const hasMore = rest.length > page.length;
  return {
    items: page.map((entry) => entry.item),
    hasMore,
    nextPage: hasMore && last ? encodeCursor({ orderBy, order, value: last.value, key: last.key }) : null,
  };
}
