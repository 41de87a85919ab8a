// Turns a zod failure into a RequestValidationError naming every bad field, so nothing invalid is
// sent.
import type { z } from 'zod';
import { type RequestIssue, RequestValidationError } from '../errors.js';

function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => {
    if (typeof segment === 'number') return `${name}[${segment}]`;
    return name ? `${name}.${String(segment)}` : String(segment);
  }, '');
}

/** One `{ field, message }` per problem, unknown keys reported under their own name. */
export function toRequestIssues(error: z.ZodError): RequestIssue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: fieldName([...issue.path, key]),
        message: 'is not a parameter of this request',
      }));
    }
    return [{ field: fieldName(issue.path) || 'request', message: issue.message }];
  });
}

/**
 * Schemas by whether they accept `{}` as it is. Most calls pass no parameters at all (`/ps list`, every
 * page of it, a watch poll), and zod builds a result for each field of an object schema even then: a
 * schema that took `{}` once, giving `{}`, takes it every time (its checks see the same nothing).
 */
const takesNothing = new WeakMap<z.ZodType, boolean>();

function isEmptyPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return false;
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

/** Parses `input` or throws a RequestValidationError naming every bad field; nothing is sent. */
export function parseRequest<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  operation: string,
  action: string,
): z.output<Schema> {
  if (isEmptyPlainObject(input)) {
    let takes = takesNothing.get(schema);
    if (takes === undefined) {
      const once = schema.safeParse({});
      takes = once.success && isEmptyPlainObject(once.data);
      takesNothing.set(schema, takes);
    }
    // A new object each time: callers may add to what they were given.
    if (takes) return {} as z.output<Schema>;
  }
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new RequestValidationError(operation, action, toRequestIssues(result.error));
}
