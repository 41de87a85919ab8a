// `/ps create key=value ...` and `/ps update <machine> key=value ...` arrive as strings. The API client's
// request schema says what each parameter is, so the strings are converted by it: numbers for number
// fields, true/false/yes/no for flags, null/none for a field that may be cleared. Keys match the
// schema's names ignoring case; an unknown key is refused with the closest name. A value that does not
// convert is passed on unchanged, so the schema's own message names the key and says what it must be.
import { z } from 'zod';
import type { RequestIssue } from '../../paperspace/errors.js';
import { toRequestIssues } from '../../paperspace/request-params/parse-request.js';
import { closestMatch } from '../../slack/command-language/closest-match.js';
import type { KeyValues } from '../../slack/command-language/command-arguments.js';

export type TypedResult = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

type ValueKind = 'number' | 'boolean' | 'text';

const TRUE_WORDS = new Set(['true', 'yes']);
const FALSE_WORDS = new Set(['false', 'no']);
const NULL_WORDS = new Set(['null', 'none']);
const NUMBER = /^-?\d+(\.\d+)?$/;

/** What a field holds once optional and nullable wrappers are taken off. */
function describeField(field: z.ZodType): { kind: ValueKind; nullable: boolean } {
  let current: z.ZodType = field;
  let nullable = false;
  for (;;) {
    if (current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    else if (current instanceof z.ZodNullable) {
      nullable = true;
      current = current.unwrap() as z.ZodType;
    } else break;
  }
  if (current instanceof z.ZodNumber) return { kind: 'number', nullable };
  if (current instanceof z.ZodBoolean) return { kind: 'boolean', nullable };
  return { kind: 'text', nullable };
}

function convert(raw: string, field: z.ZodType): unknown {
  const { kind, nullable } = describeField(field);
  const word = raw.trim().toLowerCase();
  if (nullable && NULL_WORDS.has(word)) return null;
  if (kind === 'number' && NUMBER.test(raw.trim())) return Number(raw.trim());
  if (kind === 'boolean' && TRUE_WORDS.has(word)) return true;
  if (kind === 'boolean' && FALSE_WORDS.has(word)) return false;
  return raw;
}

/** Converts each value to its field's type; refuses a key the schema does not have, naming it. */
export function typedKeyValues(values: KeyValues, schema: z.ZodObject, command: string): TypedResult {
  const shape = schema.shape as Record<string, z.ZodType>;
  const names = Object.keys(shape);
  const typed: Record<string, unknown> = {};
  for (const [typedKey, raw] of Object.entries(values)) {
    const key = names.find((name) => name.toLowerCase() === typedKey.toLowerCase());
    const field = key === undefined ? undefined : shape[key];
    if (key === undefined || field === undefined) {
      const suggestion = closestMatch(typedKey, names);
      const hint = suggestion === null ? '' : ` Did you mean "${suggestion}"?`;
      return {
        ok: false,
        error: `Unknown key "${typedKey}" for ${command}.${hint} Keys: ${names.join(', ')}.`,
      };
    }
    if (Object.hasOwn(typed, key)) {
      return { ok: false, error: `Key "${key}" is given twice (as "${typedKey}" too): give it once.` };
    }
    typed[key] = convert(raw, field);
  }
  return { ok: true, value: typed };
}

/** Validates converted values; the error names every bad key: "size must be a positive whole number". */
export function validateKeyValues<Schema extends z.ZodType>(
  schema: Schema,
  values: Record<string, unknown>,
): { ok: true; value: z.output<Schema> } | { ok: false; error: string } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: describeIssues(toRequestIssues(result.error)) };
}

/** One sentence naming each bad key: "size must be a positive whole number; region is required." */
export function describeIssues(issues: readonly RequestIssue[]): string {
  const problems = issues.map((issue) => `${issue.field} ${issue.message}`);
  return `${[...new Set(problems)].join('; ')}.`;
}
