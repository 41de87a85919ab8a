// Judges one logged v1 exchange against the test's reading of the OpenAPI (v1-openapi-schemas.ts):
// what the client sent (query and body) and what the emulator answered (the operation's answer, or
// the `error` body with the code of its status). Kept apart from the schemas so that the contract
// test and the suite-wide check (test/support/v1-answer-check.ts) judge by the same rules.
import type { z } from 'zod';
import type { RequestLogEntry } from '../../tools/emulator/index.js';
import { operationOf, V1_ERROR_CODES, v1ErrorBody } from './v1-openapi-schemas.js';

const describeExchange = (entry: RequestLogEntry) => `${entry.method} ${entry.path}${entry.query}`;

/** One line per issue, `items.0.region: expected string, received null`: a suite's worth stays readable. */
const issuesOf = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join('.') || '(whole)'}: ${issue.message}`).join('; ');

/** What is wrong with an error answer: a shape the OpenAPI's `error` response lacks, or another code. */
export function errorProblemsOf(entry: RequestLogEntry): string[] {
  const where = `${entry.status} to ${describeExchange(entry)}`;
  const parsed = v1ErrorBody.safeParse(entry.reply);
  if (!parsed.success) return [`${where}: ${issuesOf(parsed.error)}`];
  const expected = V1_ERROR_CODES[entry.status] ?? 'INTERNAL_SERVER_ERROR';
  return parsed.data.code === expected ? [] : [`${where}: code ${parsed.data.code}, not ${expected}`];
}

/** What is wrong with the emulator's answer. A failure to a path v1 lacks is judged as an error only. */
export function answerProblemsOf(entry: RequestLogEntry): string[] {
  if (entry.status !== 200) return errorProblemsOf(entry);
  const operation = operationOf(entry.method, entry.path);
  if (!operation)
    return [`${describeExchange(entry)}: answered 200, but is not an operation of the specification`];
  const parsed = operation.answer.safeParse(entry.reply);
  return parsed.success ? [] : [`${describeExchange(entry)} answer: ${issuesOf(parsed.error)}`];
}

/** What is wrong with the client's request: an operation v1 lacks, a parameter or body field it lacks. */
export function requestProblemsOf(entry: RequestLogEntry): string[] {
  const where = describeExchange(entry);
  const operation = operationOf(entry.method, entry.path);
  if (!operation) return [`${where}: not an operation of the specification`];
  const problems: string[] = [];
  const parsedQuery = operation.query.safeParse(Object.fromEntries(new URLSearchParams(entry.query)));
  if (!parsedQuery.success) problems.push(`${where} query: ${issuesOf(parsedQuery.error)}`);
  if (operation.body) {
    const parsedBody = operation.body.safeParse(entry.body ?? {});
    if (!parsedBody.success) problems.push(`${where} body: ${issuesOf(parsedBody.error)}`);
  } else if (entry.body !== undefined) {
    problems.push(`${where}: sent a body the operation does not take`);
  }
  return problems;
}
