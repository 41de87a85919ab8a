// Readers of the commands that act on one machine: show, start, stop, restart, wait, create, update,
// destroy, access and usage.
import {
  fail,
  NO_OPTIONS,
  type OptionSpec,
  type ParseResult,
  type Read,
  readKeyValues,
  readMachine,
  splitArguments,
  splitWithoutKeyValues,
  success,
  tooMany,
} from './command-arguments.js';
import type { AccessUser } from './command-grammar.js';
import { parseBillingMonth, parseWaitState } from './command-values.js';
import { parseDuration } from './duration.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

export function readMachineOnly(name: 'show', args: Token[]): ParseResult {
  const split = splitWithoutKeyValues(name, args, NO_OPTIONS);
  if (!split.ok) return split;
  const machine = readMachine(name, split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = tooMany(name, split.args.positionals, 1, 'one <machine> (quote a name with spaces)');
  return extra ?? success({ name, machine: machine.value });
}

const NO_WAIT: OptionSpec = { name: '--no-wait', takesValue: false };

export function readPower(name: 'start' | 'stop' | 'restart', args: Token[]): ParseResult {
  const split = splitWithoutKeyValues(name, args, [NO_WAIT]);
  if (!split.ok) return split;
  const machine = readMachine(name, split.args.positionals[0]);
  if (!machine.ok) return machine;
  const extra = tooMany(name, split.args.positionals, 1, 'one <machine> (quote a name with spaces)');
  return extra ?? success({ name, machine: machine.value, noWait: split.args.options.has(NO_WAIT.name) });
}

const TIMEOUT: OptionSpec = { name: '--timeout', takesValue: true };
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60 * 1000;

export function readWait(args: Token[]): ParseResult {
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

export function readCreate(args: Token[]): ParseResult {
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

export function readUpdate(args: Token[]): ParseResult {
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

export function readDestroy(args: Token[]): ParseResult {
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

export function readAccess(args: Token[]): ParseResult {
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

export function readUsage(args: Token[]): ParseResult {
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
