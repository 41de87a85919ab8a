// A request schema's complaints about a form, one sentence per parameter. The client's messages read
// after the parameter's name ("must not be empty"); in a form they sit under a field whose label the
// person sees, so each gets a subject that names that field in words ("The name must not be empty").
import type { z } from 'zod';
import type { RequestIssue } from '../../paperspace/errors.js';
import { toRequestIssues } from '../../paperspace/request-params/parse-request.js';

/** Problems keyed by request parameter name. */
export type ParameterProblems = Record<string, string>;

/**
 * Problems keyed by the top-level parameter each issue is about, so one in `tags[0]` sits under the
 * tags field. `subjects` names a parameter in words; without one, the issue's own field name is used.
 */
export function issueProblems(
  issues: readonly RequestIssue[],
  subjects: Readonly<Record<string, string>> = {},
): ParameterProblems {
  const problems: ParameterProblems = {};
  for (const issue of issues) {
    const parameter = issue.field.split(/[.[]/)[0] ?? issue.field;
    const sentence = `${subjects[parameter] ?? issue.field} ${issue.message}.`;
    problems[parameter] = problems[parameter] ? `${problems[parameter]} ${sentence}` : sentence;
  }
  return problems;
}

/** A form read with a request schema: its parameters, or what is wrong, keyed by form input. */
export type FormReading<Params> = { ok: true; params: Params } | { ok: false; problems: ParameterProblems };

/**
 * Checks a form's values with the client's own request schema, so the form refuses exactly what the
 * API call would. Problems are keyed by parameter, or by the form input `formNames` maps it to where
 * the form names its inputs otherwise.
 */
export function readForm<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
  subjects: Readonly<Record<string, string>>,
  formNames: Readonly<Record<string, string>> = {},
): FormReading<z.output<Schema>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { ok: true, params: parsed.data };
  const problems: ParameterProblems = {};
  for (const [parameter, problem] of Object.entries(issueProblems(toRequestIssues(parsed.error), subjects))) {
    problems[formNames[parameter] ?? parameter] = problem;
  }
  return { ok: false, problems };
}
