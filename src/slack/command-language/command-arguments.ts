// Turns a command's tokens into what its reader needs: positionals, key=value pairs and options, with
// the shared checks (missing <machine>, unexpected extras, unknown or repeated keys and options) and
// their error sentences in one place, so every command words its errors the same way.
import { closestMatch } from './closest-match.js';
import { parseBillingMonth, readMachineType, resolveRegion } from './command-values.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

/** What a command's reader answers: its parameters, or a sentence naming what is wrong. */
export type Read<T> = { ok: true; value: T } | ReadFailure;

export type ReadFailure = {
  ok: false;
  /** A sentence naming the problem and the argument; plain text (escape it for mrkdwn when sending). */
  error: string;
  /** The usage to show with it, when not the command's own (a group's, or the pointer to help). */
  usage?: string;
};

export function accept<const T>(value: T): Read<T> {
  return { ok: true, value };
}

export function fail(error: string, usage?: string): ReadFailure {
  return usage === undefined ? { ok: false, error } : { ok: false, error, usage };
}

// ---------------------------------------------------------------------------------------------------
// Splitting arguments into positionals, key=value pairs and options

export interface OptionSpec {
  /** With the leading dashes, lower case: `--no-wait`. */
  readonly name: string;
  readonly takesValue: boolean;
}

interface Arguments {
  positionals: Token[];
  keyValues: Token[];
  options: Map<string, string | true>;
}

const NO_OPTIONS: readonly OptionSpec[] = [];

/**
 * An unquoted token starting with `--` is an option. Slack and macOS turn a typed `--` into an em or
 * en dash, so `—no-wait` and `–no-wait` are read as `--no-wait` too.
 */
function optionName(token: Token): string | null {
  if (token.quoted) return null;
  const dashed = token.text.replace(/^[\u2013\u2014](?=[A-Za-z])/, '--');
  return dashed.startsWith('--') ? dashed : null;
}

export function splitArguments(
  name: string,
  args: readonly Token[],
  allowed: readonly OptionSpec[] = NO_OPTIONS,
): { ok: true; args: Arguments } | ReadFailure {
  const result: Arguments = { positionals: [], keyValues: [], options: new Map() };
  for (let i = 0; i < args.length; i++) {
    const token = args[i];
    if (token === undefined) continue;
    const option = optionName(token);
    if (option === null) {
      if (token.equalsAt === -1) result.positionals.push(token);
      else result.keyValues.push(token);
      continue;
    }
    const equals = option.indexOf('=');
    const optionKey = (equals === -1 ? option : option.slice(0, equals)).toLowerCase();
    const spec = allowed.find((candidate) => candidate.name === optionKey);
    if (spec === undefined) {
      const accepted =
        allowed.length === 0
          ? `${name} takes no options.`
          : `${name} accepts ${allowed.map((candidate) => candidate.name).join(', ')}.`;
      return fail(`Unknown option ${echo(optionKey)}: ${accepted}`);
    }
    if (result.options.has(spec.name)) return fail(`Option ${spec.name} is given twice: give it once.`);
    if (!spec.takesValue) {
      if (equals !== -1) return fail(`Option ${spec.name} takes no value.`);
      result.options.set(spec.name, true);
      continue;
    }
    let value: string | undefined = equals === -1 ? undefined : option.slice(equals + 1);
    if (value === undefined) {
      const next = args[i + 1];
      if (next !== undefined && optionName(next) === null) {
        value = next.text;
        i++;
      }
    }
    if (value === undefined || value === '') return fail(`Missing value for ${spec.name}.`);
    result.options.set(spec.name, value);
  }
  return { ok: true, args: result };
}

/** Splits and refuses key=value pairs, for commands that take none. */
export function splitWithoutKeyValues(
  name: string,
  args: readonly Token[],
  allowed: readonly OptionSpec[] = NO_OPTIONS,
): { ok: true; args: Arguments } | ReadFailure {
  const split = splitArguments(name, args, allowed);
  if (!split.ok) return split;
  const [keyValue] = split.args.keyValues;
  if (keyValue !== undefined) {
    return fail(`Unexpected key=value ${echo(keyValue.text)}: ${name} takes no key=value arguments.`);
  }
  return split;
}

/** The parameters of a command that takes none. */
export type NoParameters = Record<string, never>;

export function withoutArguments(name: string, args: readonly Token[]): Read<NoParameters> {
  const [extra] = args;
  if (extra !== undefined)
    return fail(`Unexpected argument ${echo(extra.text)}: ${name} takes no arguments.`);
  return accept({});
}

/** Fails on the first positional beyond `max`. */
export function tooMany(
  name: string,
  positionals: readonly Token[],
  max: number,
  takes: string,
): ReadFailure | null {
  const extra = positionals[max];
  return extra === undefined
    ? null
    : fail(`Unexpected argument ${echo(extra.text)}: ${name} takes ${takes}.`);
}

// ---------------------------------------------------------------------------------------------------
// Values

export function readMachine(token: Token | undefined): Read<string> {
  if (token === undefined) return fail('Missing <machine>: give the machine id or its name.');
  if (token.slackUserId !== null) {
    return fail(`Invalid <machine> ${echo(token.text)}: that is a person; give a machine id or name.`);
  }
  const machine = token.text.trim();
  if (machine === '') return fail('Empty <machine>: give the machine id or its name.');
  return { ok: true, value: machine };
}

/** An optional billing month `YYYY-MM`; null when none was typed, which means the current month. */
export function readOptionalMonth(token: Token | undefined): Read<string | null> {
  if (token === undefined) return accept(null);
  const month = parseBillingMonth(token.text);
  return month.ok ? accept(month.value) : fail(`Invalid month ${echo(token.text)}: ${month.error}.`);
}

export function readId(token: Token | undefined, what: string): Read<string> {
  const id = token?.text.trim() ?? '';
  if (token === undefined || id === '') return fail(`Missing <id>: give the ${what} id.`);
  if (/\s/.test(id)) return fail(`Invalid <id> ${echo(id)}: a ${what} id has no spaces.`);
  return { ok: true, value: id };
}

/** Raw `key=value` arguments; the service validates the values with the API client's schemas. */
export type KeyValues = Record<string, string>;

const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Collects key=value tokens. With `allowedKeys`, keys are matched to those names ignoring case and
 * unknown ones are refused with a suggestion. Regions may be given by short code (`region=CA1`) and
 * machine types in any case: both are turned into the contract's exact strings.
 */
export function readKeyValues(
  name: string,
  tokens: readonly Token[],
  allowedKeys: readonly string[] | null,
  what: 'filter' | 'key',
  /** The few keys people use most, named when a key is unknown (default: every allowed key). */
  commonKeys: readonly string[] = allowedKeys ?? [],
): Read<KeyValues> {
  const values: KeyValues = {};
  for (const token of tokens) {
    const typedKey = token.text.slice(0, token.equalsAt);
    const value = token.text.slice(token.equalsAt + 1);
    if (typedKey === '') return fail(`Missing key before ${echo(token.text)}: write key=value.`);
    let key = typedKey;
    if (allowedKeys !== null) {
      const known = allowedKeys.find((candidate) => candidate.toLowerCase() === typedKey.toLowerCase());
      if (known === undefined) {
        const suggestion =
          typedKey.toLowerCase() === 'id' ? 'machineId' : closestMatch(typedKey, allowedKeys);
        const hint = suggestion === null ? '' : ` Did you mean "${suggestion}"?`;
        const others = allowedKeys.length - commonKeys.length;
        const rest = others > 0 ? `, or any of ${others} more fields` : '';
        return fail(
          `Unknown ${what} ${echo(typedKey)} for ${name}.${hint} Use ${commonKeys.join(', ')}${rest}.`,
        );
      }
      key = known;
    } else if (!KEY_PATTERN.test(typedKey)) {
      return fail(`Invalid key ${echo(typedKey)}: keys are parameter names such as machineName.`);
    }
    if (Object.hasOwn(values, key)) return fail(`Duplicate ${what} "${key}": give each ${what} once.`);
    if (value.trim() === '') {
      return fail(`Missing value for ${what} "${key}": write ${key}=value (quote values with spaces).`);
    }
    values[key] = normalizeValue(key, value);
  }
  return { ok: true, value: values };
}

/**
 * Key=value parameters that came as JSON (Slackbot's tools), read as the text reader reads them: a region
 * code (`CA1`) or a machine type in any case (`p4000`) becomes the name the API takes.
 */
export function normalizedKeyValues(values: KeyValues): KeyValues {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, normalizeValue(key, value)]));
}

function normalizeValue(key: string, value: string): string {
  if (key === 'region') return resolveRegion(value) ?? value;
  if (key === 'machineType') {
    const machineType = readMachineType(value);
    return machineType.kind === 'unknown' ? value : machineType.machineType;
  }
  return value;
}
