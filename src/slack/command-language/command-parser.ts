// Reads the text after `/ps` into a Command, or into an error that names the problem and the argument
// together with the command's usage line. Bad input never reaches a service or the API.
// Order of checks: a pasted secret is refused before anything else reads the text (so no error can
// echo it), then the length cap, then tokens (quotes, Slack markup), then the command's own rules.
import { MACHINE_STATES, type Region } from '../../paperspace/constants.js';
import { SLASH_COMMAND } from '../ids.js';
import { closestMatch } from './closest-match.js';
import {
  fail,
  failWith,
  NO_OPTIONS,
  type OptionSpec,
  type ParseResult,
  type Read,
  readId,
  readKeyValues,
  readMachine,
  splitArguments,
  splitWithoutKeyValues,
  success,
  tooMany,
  withoutArguments,
} from './command-arguments.js';
import {
  type AccessUser,
  COMMAND_WORDS,
  COMMANDS,
  commandsForTopic,
  FILTER_KEYS,
  type FilteredListName,
  GENERAL_USAGE,
  groupUsage,
  usageOf,
} from './command-grammar.js';
import {
  parseBillingMonth,
  parseReminderDays,
  parseTimeOfDay,
  parseWaitState,
  REGION_CODE_LIST,
  readMachineType,
  resolveRegion,
} from './command-values.js';
import { parseDuration } from './duration.js';
import { echo } from './echo.js';
import { looksLikeSecret } from './secret-detector.js';
import type { Token } from './tokenize.js';
import { tokenize } from './tokenize.js';

export type { ParseFailure, ParseResult } from './command-arguments.js';

/** Longer texts are refused: no command needs this much, and it bounds the parser's work. */
export const MAX_COMMAND_LENGTH = 4000;

export const SECRET_REFUSAL =
  'That looks like an API key. It was not stored or shown. Rotate it in Paperspace now, then link the new key privately with /ps login.';

/** Answered only if the parser has a bug; the fuzz test checks that no input ever gets it. */
export const PARSER_FAILURE = 'Sorry, that command could not be read. Please report this.';

/** Reads the text of a `/ps` command. Never throws. */
export function parseCommand(text: string): ParseResult {
  try {
    return parse(typeof text === 'string' ? text : '');
  } catch {
    return { ok: false, error: PARSER_FAILURE, usage: GENERAL_USAGE };
  }
}

function parse(text: string): ParseResult {
  if (looksLikeSecret(text) || hasLoginArgument(text)) {
    return { ok: false, error: SECRET_REFUSAL, usage: usageOf('login'), secretDetected: true };
  }
  if (text.length > MAX_COMMAND_LENGTH) {
    return failWith(
      GENERAL_USAGE,
      `The command is too long: ${text.length} characters, and the limit is ${MAX_COMMAND_LENGTH}.`,
    );
  }
  const tokenized = tokenize(text);
  if (!tokenized.ok) return failWith(usageOfTypedWord(text), tokenized.error);
  const [first, ...args] = tokenized.tokens;
  if (first === undefined) return success({ name: 'help', topic: null });
  const word = first.text.toLowerCase();
  const read = Object.hasOwn(READERS, word) ? READERS[word] : undefined;
  if (read !== undefined) return read(args);
  const suggestion = first.quoted ? null : closestMatch(word, COMMAND_WORDS);
  const hint =
    suggestion !== null
      ? `Did you mean "${suggestion}"?`
      : first.equalsAt > 0
        ? `To filter machines, use ${usageOf('list')}.`
        : `Type ${SLASH_COMMAND} help to see the commands.`;
  return failWith(GENERAL_USAGE, `Unknown command ${echo(first.text)}. ${hint}`);
}

/**
 * Whatever follows `login` is most likely a key the person meant to paste, even one the detector does
 * not recognise (a short or unusual key): it is answered as a pasted key. Read before tokenizing, so
 * not even a tokenizer error can echo it.
 */
function hasLoginArgument(text: string): boolean {
  const [word, ...rest] = text.trim().split(/\s+/);
  return word?.toLowerCase() === 'login' && rest.length > 0;
}

/** The usage of the command a text starts with, read without tokens (for errors found while splitting). */
function usageOfTypedWord(text: string): string {
  const word = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return COMMAND_WORDS.includes(word) ? groupUsage(word) : GENERAL_USAGE;
}

type Reader = (args: Token[]) => ParseResult;

const READERS: Record<string, Reader> = {
  help: readHelp,
  '--help': readHelp,
  '-h': readHelp,
  // Arguments never reach here (hasLoginArgument).
  login: () => success({ name: 'login' }),
  logout: (args) => withoutArguments('logout', args),
  whoami: (args) => withoutArguments('whoami', args),
  list: (args) => readFiltered('list', args),
  show: (args) => readMachineOnly('show', args),
  start: (args) => readPower('start', args),
  stop: (args) => readPower('stop', args),
  restart: (args) => readPower('restart', args),
  wait: readWait,
  create: readCreate,
  update: readUpdate,
  destroy: readDestroy,
  access: readAccess,
  usage: readUsage,
  availability: readAvailability,
  scripts: (args) => withoutArguments('scripts', args),
  script: readScript,
  templates: (args) => readFiltered('templates', args),
  users: (args) => readFiltered('users', args),
  networks: (args) => readFiltered('networks', args),
  drives: (args) => withoutArguments('drives', args),
  drive: readDrive,
  share: readShare,
  shares: (args) => withoutArguments('shares', args),
  remind: readRemind,
  reminders: (args) => withoutArguments('reminders', args),
  approvals: readApprovals,
  requests: (args) => withoutArguments('requests', args),
  spend: readSpend,
  digest: readDigest,
  alerts: readAlerts,
};

// ---------------------------------------------------------------------------------------------------
// Commands

function readHelp(args: Token[]): ParseResult {
  if (args.length === 0) return success({ name: 'help', topic: null });
  const typed = args.map((token) => token.text).join(' ');
  const topic = typed.trim().toLowerCase().split(/\s+/).join(' ');
  const specs = commandsForTopic(topic);
  if (specs === null) {
    const suggestion = closestMatch(topic, [...COMMAND_WORDS, ...COMMANDS.map((spec) => spec.name)]);
    const hint =
      suggestion === null ? ` Type ${SLASH_COMMAND} help to see them all.` : ` Did you mean "${suggestion}"?`;
    return fail('help', `Unknown command ${echo(typed)} in help.${hint}`);
  }
  return success({ name: 'help', topic });
}

function readFiltered(name: FilteredListName, args: Token[]): ParseResult {
  const split = splitArguments(name, args, NO_OPTIONS);
  if (!split.ok) return split;
  const [positional] = split.args.positionals;
  if (positional !== undefined) {
    const typed = positional.text.toLowerCase();
    const isState = name === 'list' && (MACHINE_STATES as readonly string[]).includes(typed);
    const hint = isState ? ` Did you mean state=${typed}?` : ` ${name} takes key=value filters.`;
    return fail(name, `Expected key=value, got ${echo(positional.text)}.${hint}`);
  }
  const filters = readKeyValues(name, split.args.keyValues, FILTER_KEYS[name], 'filter');
  if (!filters.ok) return filters;
  return success({ name, filters: filters.value });
}

function readMachineOnly(name: 'show', args: Token[]): ParseResult {
  const split = splitWithoutKeyValues(name, args, NO_OPTIONS);
  if (!split.ok) return split;
  const machine = readMachine(name, split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = tooMany(name, split.args.positionals, 1, 'one <machine> (quote a name with spaces)');
  return extra ?? success({ name, machine: machine.value });
}

const NO_WAIT: OptionSpec = { name: '--no-wait', takesValue: false };

function readPower(name: 'start' | 'stop' | 'restart', args: Token[]): ParseResult {
  const split = splitWithoutKeyValues(name, args, [NO_WAIT]);
  if (!split.ok) return split;
  const machine = readMachine(name, split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = tooMany(name, split.args.positionals, 1, 'one <machine> (quote a name with spaces)');
  return extra ?? success({ name, machine: machine.value, noWait: split.args.options.has(NO_WAIT.name) });
}

const TIMEOUT: OptionSpec = { name: '--timeout', takesValue: true };
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60 * 1000;

function readWait(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('wait', args, [TIMEOUT]);
  if (!split.ok) return split;
  const [machineToken, stateToken] = split.args.positionals;
  const machine = readMachine('wait', machineToken);
  if (!machine.ok) return machine;
  if (stateToken === undefined) return fail('wait', 'Missing <state>: give off, serviceready or ready.');
  const state = parseWaitState(stateToken.text);
  if (!state.ok) return fail('wait', `Invalid <state> ${echo(stateToken.text)}: ${state.error}.`);
  const extra = tooMany('wait', split.args.positionals, 2, '<machine> and <state>');
  if (extra !== null) return extra;
  let timeoutMs = DEFAULT_WAIT_TIMEOUT_MS;
  const typedTimeout = split.args.options.get(TIMEOUT.name);
  if (typeof typedTimeout === 'string') {
    const duration = parseDuration(typedTimeout);
    if (!duration.ok) return fail('wait', `Invalid --timeout ${echo(typedTimeout)}: ${duration.error}.`);
    timeoutMs = duration.ms;
  }
  return success({ name: 'wait', machine: machine.value, state: state.value, timeoutMs });
}

const EXPIRES: OptionSpec = { name: '--expires', takesValue: true };
/** A request left open longer than a week is forgotten rather than decided. */
const MAX_REQUEST_LIFETIME_MS = 7 * 24 * 3_600_000;

function readApprovals(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('approvals', args, [EXPIRES]);
  if (!split.ok) return split;
  const [where] = split.args.positionals;
  if (where === undefined)
    return fail('approvals', "Missing <#channel>: pick the channel from Slack's # list, or say off.");
  const extra = tooMany('approvals', split.args.positionals, 1, 'one channel');
  if (extra !== null) return extra;
  let channel: string | null = null;
  if (where.text.toLowerCase() !== 'off') {
    if (where.slackChannelId === undefined) {
      return fail(
        'approvals',
        `Cannot tell which channel ${echo(where.text)} is: pick it from Slack's # list so it is sent as a link.`,
      );
    }
    channel = where.slackChannelId;
  }
  let lifetimeMs: number | null = null;
  const typedExpiry = split.args.options.get(EXPIRES.name);
  if (typeof typedExpiry === 'string') {
    const duration = parseDuration(typedExpiry, MAX_REQUEST_LIFETIME_MS);
    if (!duration.ok) return fail('approvals', `Invalid --expires ${echo(typedExpiry)}: ${duration.error}.`);
    lifetimeMs = duration.ms;
  }
  return success({ name: 'approvals', channel, lifetimeMs });
}

/** A forgotten machine is one left running for hours; a week is past forgetting. */
const MAX_ALERT_THRESHOLD_MS = 7 * 24 * 3_600_000;

function readAlerts(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('alerts', args, NO_OPTIONS);
  if (!split.ok) return split;
  const positionals = [...split.args.positionals];
  if (positionals.length === 0) return success({ name: 'alerts', scope: null, thresholdMs: null });
  let scope: 'self' | 'team' = 'self';
  if (positionals[0]?.text.toLowerCase() === 'default') {
    scope = 'team';
    positionals.shift();
    if (positionals.length === 0)
      return fail('alerts', 'Missing the default: give a duration such as 8h, or off.');
  }
  const extra = tooMany('alerts', positionals, 1, 'one duration or off');
  if (extra !== null) return extra;
  const typed = positionals[0]?.text ?? '';
  if (typed.toLowerCase() === 'off') return success({ name: 'alerts', scope, thresholdMs: null });
  const duration = parseDuration(typed, MAX_ALERT_THRESHOLD_MS);
  if (!duration.ok) return fail('alerts', `Invalid threshold ${echo(typed)}: ${duration.error}.`);
  return success({ name: 'alerts', scope, thresholdMs: duration.ms });
}

function readCreate(args: Token[]): ParseResult {
  if (args.length === 0) return success({ name: 'create', params: null });
  const split = splitArguments('create', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [positional] = split.args.positionals;
  if (positional !== undefined) {
    return fail(
      'create',
      `Expected key=value, got ${echo(positional.text)}: create takes parameters such as machineName="My machine".`,
    );
  }
  const params = readKeyValues('create', split.args.keyValues, null, 'key');
  if (!params.ok) return params;
  return success({ name: 'create', params: params.value });
}

function readUpdate(args: Token[]): ParseResult {
  const split = splitArguments('update', args, NO_OPTIONS);
  if (!split.ok) return split;
  const machine = readMachine('update', split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = split.args.positionals[1];
  if (extra !== undefined) {
    return fail('update', `Expected key=value, got ${echo(extra.text)}: quote a machine name with spaces.`);
  }
  if (split.args.keyValues.length === 0) {
    return fail('update', 'Missing key=value: say what to change, for example shutdownTimeoutInHours=2.');
  }
  const params = readKeyValues('update', split.args.keyValues, null, 'key');
  if (!params.ok) return params;
  return success({ name: 'update', machine: machine.value, params: params.value });
}

const RELEASE_IP: OptionSpec = { name: '--release-ip', takesValue: false };

function readDestroy(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('destroy', args, [RELEASE_IP]);
  if (!split.ok) return split;
  const machine = readMachine('destroy', split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = tooMany('destroy', split.args.positionals, 1, 'one <machine> (quote a name with spaces)');
  return (
    extra ??
    success({
      name: 'destroy',
      machine: machine.value,
      releasePublicIp: split.args.options.has(RELEASE_IP.name),
    })
  );
}

const PAPERSPACE_USER_ID = /^[A-Za-z0-9_-]+$/;

function readAccessUser(token: Token | undefined): Read<AccessUser> {
  if (token === undefined)
    return fail('access', 'Missing <@user|userId>: mention the person or give their Paperspace user id.');
  if (token.slackUserId !== null)
    return { ok: true, value: { kind: 'slack', slackUserId: token.slackUserId } };
  const typed = token.text.trim();
  if (typed.startsWith('@')) {
    return fail(
      'access',
      `Cannot tell who ${echo(typed)} is: pick the person from Slack's @ list so the mention is sent as a link, or give their Paperspace user id.`,
    );
  }
  if (!PAPERSPACE_USER_ID.test(typed)) {
    return fail(
      'access',
      `Invalid <@user|userId> ${echo(typed)}: mention the person or give their Paperspace user id.`,
    );
  }
  return { ok: true, value: { kind: 'paperspace', userId: typed } };
}

function readAccess(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('access', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [machineToken, actionToken, userToken] = split.args.positionals;
  const machine = readMachine('access', machineToken);
  if (!machine.ok) return machine;
  if (actionToken === undefined) return fail('access', 'Missing grant or revoke after <machine>.');
  const action = actionToken.text.toLowerCase();
  if (action !== 'grant' && action !== 'revoke') {
    return fail('access', `Invalid action ${echo(actionToken.text)}: use grant or revoke.`);
  }
  const user = readAccessUser(userToken);
  if (!user.ok) return user;
  const extra = tooMany('access', split.args.positionals, 3, '<machine>, grant or revoke, and one person');
  return extra ?? success({ name: 'access', machine: machine.value, action, user: user.value });
}

function readUsage(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('usage', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [machineToken, monthToken] = split.args.positionals;
  const machine = readMachine('usage', machineToken);
  if (!machine.ok) return machine;
  let month: string | null = null;
  if (monthToken !== undefined) {
    const billingMonth = parseBillingMonth(monthToken.text);
    if (!billingMonth.ok)
      return fail('usage', `Invalid month ${echo(monthToken.text)}: ${billingMonth.error}.`);
    month = billingMonth.value;
  }
  const extra = tooMany('usage', split.args.positionals, 2, '<machine> and an optional YYYY-MM');
  return extra ?? success({ name: 'usage', machine: machine.value, month });
}

function readSpend(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('spend', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [monthToken] = split.args.positionals;
  let month: string | null = null;
  if (monthToken !== undefined) {
    const billingMonth = parseBillingMonth(monthToken.text);
    if (!billingMonth.ok)
      return fail('spend', `Invalid month ${echo(monthToken.text)}: ${billingMonth.error}.`);
    month = billingMonth.value;
  }
  const extra = tooMany('spend', split.args.positionals, 1, 'an optional YYYY-MM');
  return extra ?? success({ name: 'spend', month });
}

function readDigest(args: Token[]): ParseResult {
  const [first, ...rest] = args;
  if (first?.text.toLowerCase() === 'off' && !first.quoted) return withoutArguments('digest off', rest);
  const split = splitWithoutKeyValues('digest', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [where, scheduleToken, timeToken, zoneToken] = split.args.positionals;
  if (where === undefined) {
    return fail('digest', "Missing <#channel>: pick the channel from Slack's # list, or say off.");
  }
  if (where.slackChannelId === undefined) {
    return fail(
      'digest',
      `Cannot tell which channel ${echo(where.text)} is: pick it from Slack's # list so it is sent as a link.`,
    );
  }
  const schedule = scheduleToken?.text.toLowerCase();
  if (schedule !== 'daily' && schedule !== 'weekly') {
    return fail(
      'digest',
      scheduleToken === undefined
        ? 'Missing daily or weekly after the channel.'
        : `Invalid schedule ${echo(scheduleToken.text)}: use daily or weekly (Mondays).`,
    );
  }
  if (timeToken === undefined)
    return fail('digest', 'Missing <HH:MM>: say when to post it, for example 09:00.');
  const time = parseTimeOfDay(timeToken.text);
  if (!time.ok) return fail('digest', `Invalid time ${echo(timeToken.text)}: ${time.error}.`);
  const extra = tooMany(
    'digest',
    split.args.positionals,
    4,
    'a channel, daily or weekly, a time and a time zone',
  );
  if (extra !== null) return extra;
  const { hour, minute } = time.value;
  const cron = `${minute} ${hour} * * ${schedule === 'weekly' ? '1' : '*'}`;
  return success({
    name: 'digest',
    channel: where.slackChannelId,
    schedule,
    time: time.value.time,
    cron,
    timezone: zoneToken?.text ?? null,
  });
}

/**
 * Region and machine type may come in either order: a region is recognised by its codes, anything
 * else is the machine type. Whether Paperspace reports on that type depends on the account's API, so
 * the command checks it when it runs.
 */
function readAvailability(args: Token[]): ParseResult {
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

function readScript(args: Token[]): ParseResult {
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

function readDrive(args: Token[]): ParseResult {
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

function readShare(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('share', args, NO_OPTIONS);
  if (!split.ok) return split;
  const machines: string[] = [];
  const people: string[] = [];
  for (const token of split.args.positionals) {
    if (token.slackUserId !== null) {
      if (!people.includes(token.slackUserId)) people.push(token.slackUserId);
      continue;
    }
    const machine = readMachine('share', token);
    if (!machine.ok) return machine;
    // Naming a machine twice shares it once.
    if (!machines.includes(machine.value)) machines.push(machine.value);
  }
  if (machines.length === 0)
    return fail('share', 'Missing <machine>: give one or more machine ids or names.');
  return success({ name: 'share', machines, with: people });
}

function readRemind(args: Token[]): ParseResult {
  const [first, ...rest] = args;
  if (first?.text.toLowerCase() === 'off' && !first.quoted) {
    const split = splitWithoutKeyValues('remind off', rest, NO_OPTIONS);
    if (!split.ok) return split;
    const [idToken] = split.args.positionals;
    const reminderId = idToken === undefined ? null : readId('remind off', idToken, 'reminder');
    if (reminderId !== null && !reminderId.ok) return reminderId;
    const extra = tooMany('remind off', split.args.positionals, 1, 'at most one reminder <id>');
    return extra ?? success({ name: 'remind off', reminderId: reminderId?.value ?? null });
  }
  const split = splitWithoutKeyValues('remind', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [timeToken, ...dayTokens] = split.args.positionals;
  if (timeToken === undefined)
    return fail('remind', 'Missing <HH:MM>: say when to remind you, for example 19:00.');
  const time = parseTimeOfDay(timeToken.text);
  if (!time.ok) return fail('remind', `Invalid time ${echo(timeToken.text)}: ${time.error}.`);
  const days = parseReminderDays(
    dayTokens.map((token) => token.text),
    time.value.hour,
    time.value.minute,
  );
  if (!days.ok) return fail('remind', `Invalid days: ${days.error}.`);
  return success({
    name: 'remind',
    time: time.value.time,
    schedule: days.value.schedule,
    cron: days.value.cron,
  });
}
