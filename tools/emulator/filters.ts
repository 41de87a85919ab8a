// List filters from the query string. Every filter is an equality match; numbers and booleans are
// compared after parsing. An unknown parameter is refused rather than ignored: a client that sends
// `id` instead of `machineId` would otherwise get every machine back and never notice.
import { MACHINE_LIST_PAGE_SIZE } from '../../src/paperspace/constants.js';
import { badRequest } from './errors.js';

export type FilterKind = 'string' | 'number' | 'boolean';

interface FilterField<T> {
  readonly kind: FilterKind;
  readonly value: (item: T) => unknown;
}

export type FilterSpec<T> = Readonly<Record<string, FilterField<T>>>;

/** Filters on a field of the item's API view that has the same name as the parameter. */
export function viewFields<T extends Record<string, unknown>>(
  kinds: Readonly<Record<string, FilterKind>>,
): FilterSpec<T> {
  return Object.fromEntries(
    Object.entries(kinds).map(([name, kind]) => [name, { kind, value: (item: T) => item[name] }]),
  );
}

function parseValue(name: string, kind: FilterKind, raw: string): string | number | boolean {
  if (kind === 'number') {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value))
      throw badRequest(`${name} must be a number, got "${raw}"`);
    return value;
  }
  if (kind === 'boolean') {
    if (raw === 'true') return true;
    if (raw === 'false') return false;
    throw badRequest(`${name} must be true or false, got "${raw}"`);
  }
  return raw;
}

/** A predicate that keeps the items matching every filter in the query. */
export function filterFromQuery<T>(
  query: URLSearchParams,
  spec: FilterSpec<T>,
  otherParameters: readonly string[] = [],
): (item: T) => boolean {
  const checks: Array<(item: T) => boolean> = [];
  for (const [name, raw] of query) {
    if (otherParameters.includes(name)) continue;
    const field = spec[name];
    if (!field) {
      throw badRequest(
        `Unknown filter "${name}"; allowed: ${[...Object.keys(spec), ...otherParameters].join(', ')}`,
      );
    }
    const expected = parseValue(name, field.kind, raw);
    checks.push((item) => field.value(item) === expected);
  }
  return (item) => checks.every((check) => check(item));
}

function nonNegativeInteger(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null) return null;
  if (!/^\d+$/.test(raw)) throw badRequest(`${name} must be a non-negative integer, got "${raw}"`);
  return Number(raw);
}

/** `limit` (default and maximum 1000) and `skip` of getMachines. */
export function pageFromQuery(query: URLSearchParams): { limit: number; skip: number } {
  const limit = nonNegativeInteger(query, 'limit') ?? MACHINE_LIST_PAGE_SIZE;
  if (limit < 1 || limit > MACHINE_LIST_PAGE_SIZE) {
    throw badRequest(`limit must be between 1 and ${MACHINE_LIST_PAGE_SIZE}, got ${limit}`);
  }
  return { limit, skip: nonNegativeInteger(query, 'skip') ?? 0 };
}

export function requiredQuery(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw badRequest(`${name} is required`);
  return value;
}
