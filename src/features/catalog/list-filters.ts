// What each list command accepts after its name: the filters, as the contract names them
// (paperspace-api-contract.md, "List machines" and the Templates, Users and Networks sections), plus
// `machineType` and `owner` for machines, and the reader that turns typed `key=value` pairs into them.
import { z } from 'zod';
import { MACHINE_STATES } from '../../paperspace/constants.js';
import { closestMatch } from '../../slack/command-language/closest-match.js';
import {
  accept,
  fail,
  type KeyValues,
  normalizedKeyValues,
  type Read,
  readKeyValues,
  splitArguments,
} from '../../slack/command-language/command-arguments.js';
import { echo } from '../../slack/command-language/echo.js';
import type { Token } from '../../slack/command-language/tokenize.js';

/**
 * getMachines takes `machineId`, never `id`; `limit` and `skip` are pagination, which the bot drives
 * itself.
 */
export const FILTER_KEYS = {
  list: [
    'machineId',
    'name',
    'os',
    'ram',
    'cpus',
    'gpu',
    'storageTotal',
    'storageUsed',
    'usageRate',
    'shutdownTimeoutInHours',
    'performAutoSnapshot',
    'autoSnapshotFrequency',
    'autoSnapshotSaveCount',
    'agentType',
    'dtCreated',
    'state',
    'updatesPending',
    'networkId',
    'privateIpAddress',
    'publicIpAddress',
    'region',
    'userId',
    'teamId',
    'scriptId',
    'dtLastRun',
    // Not a getMachines filter, but what people filter machines by most: the bot filters on it itself.
    'machineType',
    // A person (a Slack mention or a name), which the bot turns into getMachines' userId.
    'owner',
  ],
  templates: ['id', 'name', 'label', 'os', 'dtCreated', 'teamId', 'userId', 'region'],
  users: ['id', 'email', 'firstname', 'lastname', 'dtCreated', 'teamId'],
  networks: ['id', 'name', 'region', 'dtCreated', 'network', 'netmask', 'teamId'],
} as const satisfies Record<'list' | 'templates' | 'users' | 'networks', readonly string[]>;

export type FilteredListName = keyof typeof FILTER_KEYS;

/**
 * The filters people use, named when they type an unknown one: a list of every field of a machine
 * (27 of them) buries the four anyone wants.
 */
const COMMON_FILTER_KEYS: Record<FilteredListName, readonly string[]> = {
  list: ['state', 'region', 'machineType', 'name', 'owner'],
  templates: ['os', 'region', 'label', 'name'],
  users: ['email', 'firstname', 'lastname'],
  networks: ['region', 'name'],
};

/** The parameters of a filtered list: each filter by its field name, as typed. */
export function filtersSchema(name: FilteredListName) {
  return z.object({
    filters: z
      .record(z.string(), z.string())
      .default({})
      .describe(`Filters by field, such as ${COMMON_FILTER_KEYS[name].map((key) => `${key}`).join(', ')}.`)
      .transform(normalizedKeyValues),
  });
}

export function readFilters(name: FilteredListName, args: readonly Token[]): Read<{ filters: KeyValues }> {
  const split = splitArguments(name, args);
  if (!split.ok) return split;
  const [positional] = split.args.positionals;
  if (positional !== undefined) {
    const typed = positional.text.toLowerCase();
    const isState = name === 'list' && (MACHINE_STATES as readonly string[]).includes(typed);
    const hint = isState ? ` Did you mean state=${typed}?` : ` ${name} takes key=value filters.`;
    return fail(`Expected key=value, got ${echo(positional.text)}.${hint}`);
  }
  const filters = readKeyValues(
    name,
    split.args.keyValues,
    FILTER_KEYS[name],
    'filter',
    COMMON_FILTER_KEYS[name],
  );
  if (!filters.ok) return filters;
  const state = filters.value.state;
  if (name === 'list' && state !== undefined) {
    const known = MACHINE_STATES.find((candidate) => candidate === state.toLowerCase());
    if (known === undefined) {
      const guess = closestMatch(state.toLowerCase(), MACHINE_STATES);
      const hint = guess === null ? '' : ` Did you mean state=${guess}?`;
      return fail(`Unknown state ${echo(state)}.${hint} A machine is ${MACHINE_STATES.join(', ')}.`);
    }
    filters.value.state = known;
  }
  // `owner=@sam` keeps who was mentioned, not the name Slack shows, for the list to resolve.
  const mentioned = split.args.keyValues.find(
    (token) => token.text.slice(0, token.equalsAt).toLowerCase() === 'owner' && token.valueSlackUserId,
  )?.valueSlackUserId;
  return accept({
    filters: mentioned === undefined ? filters.value : { ...filters.value, owner: `<@${mentioned}>` },
  });
}
