// What the machine commands (and the others that name a machine: wait, share) share in their grammar:
// the one machine they act on, and its help line.
import { z } from 'zod';
import {
  accept,
  type OptionSpec,
  type Read,
  readMachine,
  splitWithoutKeyValues,
  tooMany,
} from '../../slack/command-language/command-arguments.js';
import type { Token } from '../../slack/command-language/tokenize.js';

export const MACHINE_HELP = '`<machine>`: its id, or a name that matches one of the machines you may see.';

export const machineParameter = z
  .string()
  .min(1)
  .describe('The machine: its id, or a name that matches exactly one of the machines the person may see.');

/** `<machine>` and nothing else but the options given; which of them were typed is in `options`. */
export function readOneMachine(
  name: string,
  args: readonly Token[],
  options?: readonly OptionSpec[],
): Read<{ machine: string; options: ReadonlySet<string> }> {
  const split = splitWithoutKeyValues(name, args, options);
  if (!split.ok) return split;
  const machine = readMachine(split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = tooMany(name, split.args.positionals, 1, 'one <machine> (quote a name with spaces)');
  return extra ?? accept({ machine: machine.value, options: new Set(split.args.options.keys()) });
}
