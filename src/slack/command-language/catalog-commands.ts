// Readers of the commands that list or look up what an account has: list, templates, users and
// networks with their filters, availability, and the script and drive subcommands.
import { MACHINE_STATES, type Region } from '../../paperspace/constants.js';
import { closestMatch } from './closest-match.js';
import {
  fail,
  failWith,
  NO_OPTIONS,
  type ParseResult,
  type Reader,
  readId,
  readKeyValues,
  splitArguments,
  splitWithoutKeyValues,
  success,
  tooMany,
  withoutArguments,
} from './command-arguments.js';
import {
  COMMON_FILTER_KEYS,
  FILTER_KEYS,
  type FilteredListName,
  groupUsage,
  usageOf,
} from './command-grammar.js';
import { REGION_CODE_LIST, readMachineType, resolveRegion } from './command-values.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

export function readFiltered(name: FilteredListName, args: Token[]): ParseResult {
  const split = splitArguments(name, args, NO_OPTIONS);
  if (!split.ok) return split;
  const [positional] = split.args.positionals;
  if (positional !== undefined) {
    const typed = positional.text.toLowerCase();
    const isState = name === 'list' && (MACHINE_STATES as readonly string[]).includes(typed);
    const hint = isState ? ` Did you mean state=${typed}?` : ` ${name} takes key=value filters.`;
    return fail(name, `Expected key=value, got ${echo(positional.text)}.${hint}`);
  }
  const filters = readKeyValues(
    name,
    split.args.keyValues,
    FILTER_KEYS[name],
    'filter',
    COMMON_FILTER_KEYS[name],
  );
  if (!filters.ok) return filters;
  // `owner=@sam` keeps who was mentioned, not the name Slack shows, for the list to resolve.
  const mentioned = split.args.keyValues.find(
    (token) => token.text.slice(0, token.equalsAt).toLowerCase() === 'owner' && token.valueSlackUserId,
  )?.valueSlackUserId;
  const value = mentioned === undefined ? filters.value : { ...filters.value, owner: `<@${mentioned}>` };
  return success({ name, filters: value });
}

/**
 * Region and machine type may come in either order: a region is recognised by its codes, anything
 * else is the machine type. Whether Paperspace reports on that type depends on the account's API, so
 * the command checks it when it runs.
 */
export function readAvailability(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('availability', args, NO_OPTIONS);
  if (!split.ok) return split;
  let region: Region | null = null;
  let machineType: string | null = null;
  for (const token of split.args.positionals) {
    const typedRegion = resolveRegion(token.text);
    if (typedRegion !== null) {
      if (region !== null)
        return fail('availability', `Unexpected second region ${echo(token.text)}: give one region.`);
      region = typedRegion;
      continue;
    }
    if (machineType !== null) {
      return fail(
        'availability',
        `Unexpected second region or machine type ${echo(token.text)}: give one region (${REGION_CODE_LIST.join(', ')}) and one machine type.`,
      );
    }
    const typedType = readMachineType(token.text);
    machineType = typedType.kind === 'unknown' ? token.text.trim() : typedType.machineType;
    // A quoted "" is a word with nothing in it: never a machine type to ask Paperspace about.
    if (machineType === '')
      return fail(
        'availability',
        `${echo(token.text)} is not a machine type: name one, such as A100, or leave it out.`,
      );
  }
  return success({ name: 'availability', region, machineType });
}

/** Reads `<group> <subcommand> ...` for script and drive. */
function readSubcommand(
  group: 'script' | 'drive',
  args: Token[],
  readers: Record<string, Reader>,
  listCommand: 'scripts' | 'drives',
): ParseResult {
  const [subToken, ...rest] = args;
  const subcommands = Object.keys(readers);
  const choices = `${subcommands.slice(0, -1).join(', ')} or ${subcommands.at(-1)}`;
  const usage = groupUsage(group);
  if (subToken === undefined) return failWith(usage, `Missing ${group} subcommand: use ${choices}.`);
  const sub = subToken.text.toLowerCase();
  const read = Object.hasOwn(readers, sub) ? readers[sub] : undefined;
  if (read !== undefined) return read(rest);
  const suggestion = sub === 'list' ? null : closestMatch(sub, subcommands);
  const hint =
    sub === 'list'
      ? ` To list them, use ${usageOf(listCommand)}.`
      : suggestion === null
        ? ''
        : ` Did you mean "${suggestion}"?`;
  return failWith(usage, `Unknown ${group} subcommand ${echo(subToken.text)}: use ${choices}.${hint}`);
}

export function readScript(args: Token[]): ParseResult {
  const byId =
    (name: 'script show' | 'script text' | 'script delete'): Reader =>
    (rest) => {
      const split = splitWithoutKeyValues(name, rest, NO_OPTIONS);
      if (!split.ok) return split;
      const scriptId = readId(name, split.args.positionals[0], 'script');
      if (!scriptId.ok) return scriptId;
      return (
        tooMany(name, split.args.positionals, 1, 'one script <id>') ??
        success({ name, scriptId: scriptId.value })
      );
    };
  return readSubcommand(
    'script',
    args,
    {
      show: byId('script show'),
      text: byId('script text'),
      delete: byId('script delete'),
      create: (rest) => withoutArguments('script create', rest),
    },
    'scripts',
  );
}

export function readDrive(args: Token[]): ParseResult {
  return readSubcommand(
    'drive',
    args,
    {
      create: (rest) => withoutArguments('drive create', rest),
      delete: (rest) => {
        const split = splitWithoutKeyValues('drive delete', rest, NO_OPTIONS);
        if (!split.ok) return split;
        const driveId = readId('drive delete', split.args.positionals[0], 'shared drive');
        if (!driveId.ok) return driveId;
        const extra = tooMany('drive delete', split.args.positionals, 1, 'one drive <id>');
        return extra ?? success({ name: 'drive delete', driveId: driveId.value });
      },
    },
    'drives',
  );
}
