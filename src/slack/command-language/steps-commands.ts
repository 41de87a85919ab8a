// Reader of `/ps steps [on|off]`: whether Workflow Builder steps may act with the person's key.
import {
  fail,
  NO_OPTIONS,
  type ParseResult,
  splitWithoutKeyValues,
  success,
  tooMany,
} from './command-arguments.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

export function readSteps(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('steps', args, NO_OPTIONS);
  if (!split.ok) return split;
  const { positionals } = split.args;
  const extra = tooMany('steps', positionals, 1, 'on or off');
  if (extra !== null) return extra;
  const typed = positionals[0]?.text;
  if (typed === undefined) return success({ name: 'steps', enabled: null });
  const word = typed.toLowerCase();
  if (word === 'on' || word === 'off') return success({ name: 'steps', enabled: word === 'on' });
  return fail('steps', `Unknown setting ${echo(typed)}: give on or off.`);
}
