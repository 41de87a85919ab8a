// The one argument of `/ps policy max-run`: a duration (`12h`, `90m`) or `off`.
import {
  accept,
  fail,
  type Read,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { parseDuration } from '../../../slack/command-language/duration.js';
import { echo } from '../../../slack/command-language/echo.js';
import type { Token } from '../../../slack/command-language/tokenize.js';

/** Milliseconds, or null for `off`; `check` adds the rule's own limits (a sentence, or null when fine). */
export function readDurationOrOff(
  name: string,
  args: readonly Token[],
  what: { noun: string; example: string; maxMs: number; check: (ms: number) => string | null },
): Read<number | null> {
  const split = splitWithoutKeyValues(name, args);
  if (!split.ok) return split;
  const [typed] = split.args.positionals;
  if (typed === undefined)
    return fail(`Missing the ${what.noun}: say how long, for example ${what.example}, or off.`);
  const extra = tooMany(name, split.args.positionals, 1, `one ${what.noun}`);
  if (extra !== null) return extra;
  if (typed.text.toLowerCase() === 'off') return accept(null);
  const duration = parseDuration(typed.text, what.maxMs);
  const problem = duration.ok ? what.check(duration.ms) : duration.error;
  if (problem !== null || !duration.ok) return fail(`Invalid ${what.noun} ${echo(typed.text)}: ${problem}.`);
  return accept(duration.ms);
}
