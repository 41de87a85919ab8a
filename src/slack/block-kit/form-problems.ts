// A request schema's complaints about a form, one sentence per parameter. The client's messages read
// after the parameter's name ("must not be empty"); in a form they sit under a field whose label the
// person sees, so each gets a subject that names that field in words ("The name must not be empty").
import type { z } from 'zod';
import { toRequestIssues } from '../../paperspace/requests.js';

/** Problems keyed by request parameter name. */
export type ParameterProblems = Record<string, string>;

export function parameterProblems(
  error: z.ZodError,
  subjects: Readonly<Record<string, string>>,
): ParameterProblems {
  const problems: ParameterProblems = {};
  for (const issue of toRequestIssues(error)) {
    const parameter = issue.field.split(/[.[]/)[0] ?? issue.field;
    const sentence = `${subjects[parameter] ?? parameter} ${issue.message}.`;
    problems[parameter] = problems[parameter] ? `${problems[parameter]} ${sentence}` : sentence;
  }
  return problems;
}
