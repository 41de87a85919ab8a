import fc from 'fast-check';
import { validate as isValidCron } from 'node-cron';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FILTER_KEYS } from '../../../src/features/catalog/list-filters.js';
import {
  MACHINE_STATES,
  MACHINE_TYPES,
  REGIONS,
  WAITABLE_STATES,
} from '../../../src/paperspace/constants.js';
import {
  MAX_COMMAND_LENGTH,
  PARSER_FAILURE,
  SECRET_REFUSAL,
} from '../../../src/slack/command-language/command-parser.js';
import { MAX_DURATION_MS } from '../../../src/slack/command-language/duration.js';
import {
  COMMAND_WORDS,
  COMMANDS,
  type Command,
  commandsForTopic,
  GENERAL_USAGE,
  type ParseResult,
  parseCommand,
} from '../../support/commands.js';

// An oracle written independently of the parser: what any successfully parsed Command must satisfy.
const nonEmpty = z.string().refine((text) => text.trim() === text && text !== '', 'trimmed and non-empty');
const id = z.string().regex(/^\S+$/);
const keyValues = (keys: readonly string[] | null) =>
  z.record(
    z
      .string()
      .refine(
        (key) => (keys === null ? /^[A-Za-z][A-Za-z0-9_]*$/.test(key) : keys.includes(key)),
        'a known key',
      ),
    z.string().refine((value) => value.trim() !== '', 'a value'),
  );
const machineCommand = <N extends string>(name: N) =>
  z.strictObject({ name: z.literal(name), machine: nonEmpty });

const commandSchema = z.discriminatedUnion('name', [
  z.strictObject({
    name: z.literal('help'),
    topic: z
      .string()
      .refine((topic) => commandsForTopic(topic) !== null, 'a known topic')
      .nullable(),
  }),
  z.strictObject({ name: z.literal('login') }),
  z.strictObject({ name: z.literal('logout') }),
  z.strictObject({ name: z.literal('whoami') }),
  z.strictObject({ name: z.literal('list'), filters: keyValues(FILTER_KEYS.list) }),
  machineCommand('show'),
  machineCommand('start').extend({ noWait: z.boolean() }),
  machineCommand('stop').extend({ noWait: z.boolean() }),
  machineCommand('restart').extend({ noWait: z.boolean() }),
  machineCommand('wait').extend({
    state: z.enum(WAITABLE_STATES),
    timeoutMs: z.number().int().positive().max(MAX_DURATION_MS),
  }),
  z.strictObject({ name: z.literal('create'), params: keyValues(null).nullable() }),
  machineCommand('update').extend({
    params: keyValues(null).refine((params) => Object.keys(params).length > 0, 'at least one'),
  }),
  machineCommand('destroy').extend({ releasePublicIp: z.boolean() }),
  machineCommand('access').extend({
    action: z.enum(['grant', 'revoke']),
    user: z.discriminatedUnion('kind', [
      z.strictObject({ kind: z.literal('slack'), slackUserId: z.string().regex(/^[UW][A-Z0-9]{2,}$/) }),
      z.strictObject({ kind: z.literal('paperspace'), userId: z.string().regex(/^[A-Za-z0-9_-]+$/) }),
    ]),
  }),
  machineCommand('usage').extend({
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
      .nullable(),
  }),
  z.strictObject({
    name: z.literal('availability'),
    region: z.enum(REGIONS).nullable(),
    machineType: z.string().min(1).nullable(),
  }),
  z.strictObject({ name: z.literal('scripts') }),
  z.strictObject({ name: z.literal('script show'), scriptId: id }),
  z.strictObject({ name: z.literal('script text'), scriptId: id }),
  z.strictObject({ name: z.literal('script delete'), scriptId: id }),
  z.strictObject({ name: z.literal('script create') }),
  z.strictObject({ name: z.literal('templates'), filters: keyValues(FILTER_KEYS.templates) }),
  z.strictObject({ name: z.literal('users'), filters: keyValues(FILTER_KEYS.users) }),
  z.strictObject({ name: z.literal('networks'), filters: keyValues(FILTER_KEYS.networks) }),
  z.strictObject({ name: z.literal('drives') }),
  z.strictObject({ name: z.literal('drive create') }),
  z.strictObject({ name: z.literal('drive delete'), driveId: id }),
  z.strictObject({
    name: z.literal('share'),
    machines: z
      .array(nonEmpty)
      .min(1)
      .refine((machines) => new Set(machines).size === machines.length, 'unique'),
    with: z
      .array(z.string().regex(/^[UW][A-Z0-9]+$/))
      .refine((people) => new Set(people).size === people.length, 'unique'),
  }),
  z.strictObject({ name: z.literal('shares') }),
  z
    .strictObject({
      name: z.literal('remind'),
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      schedule: z.enum(['weekdays', 'daily', 'cron']),
      cron: z.string().refine(isValidCron, 'a cron expression node-cron accepts'),
    })
    .refine(({ time, cron }) => {
      const [hour, minute] = time.split(':').map(Number);
      return cron.startsWith(`${minute} ${hour} `) && cron.split(' ').length === 5;
    }, 'the cron expression fires at the time'),
  z.strictObject({ name: z.literal('reminders') }),
  z.strictObject({ name: z.literal('remind off'), reminder: id.nullable() }),
  z.strictObject({
    name: z.literal('approvals'),
    channel: z.string().min(1).nullable(),
    lifetimeMs: z.number().int().positive().nullable(),
  }),
  z.strictObject({ name: z.literal('requests') }),
  z.strictObject({
    name: z.literal('spend'),
    month: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
      .nullable(),
    page: z.number().int().min(1).max(10_000),
  }),
  z
    .strictObject({
      name: z.literal('digest'),
      channel: z.string().min(1),
      schedule: z.enum(['daily', 'weekly']),
      time: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
      cron: z.string().refine(isValidCron, 'a cron expression node-cron accepts'),
      timezone: z.string().min(1).nullable(),
    })
    .refine(({ time, cron, schedule }) => {
      const [hour, minute] = time.split(':').map(Number);
      return cron === `${minute} ${hour} * * ${schedule === 'weekly' ? '1' : '*'}`;
    }, 'the cron expression fires at the time'),
  z.strictObject({ name: z.literal('digest off') }),
  z.strictObject({
    name: z.literal('budget'),
    subject: z.union([z.literal('team'), z.string().regex(/^[UW][A-Z0-9]+$/)]).nullable(),
    amountCents: z.number().int().positive().max(10_000_000_000).nullable(),
    off: z.boolean(),
  }),
  z.strictObject({
    name: z.literal('alerts'),
    scope: z.enum(['self', 'team', 'unmute']).nullable(),
    thresholdMs: z
      .number()
      .int()
      .positive()
      .max(7 * 24 * 3_600_000)
      .nullable(),
    machine: z.string().min(1).max(200).nullable(),
  }),
  z.object({ name: z.literal('steps'), enabled: z.boolean().nullable() }),
  z.strictObject({ name: z.literal('claim'), machine: z.string().min(1) }),
  z.strictObject({ name: z.literal('policy') }),
  z.strictObject({
    name: z.literal('policy max-run'),
    limitMs: z
      .number()
      .int()
      .min(60_000)
      .max(7 * 24 * 3_600_000)
      .nullable(),
  }),
  z.strictObject({
    name: z.literal('policy off-hours'),
    offHours: z
      .strictObject({
        start: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
        end: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
        days: z.enum(['weekdays', 'daily']),
        timezone: z.string().min(1).nullable(),
      })
      .refine(({ start, end }) => start !== end, 'off-hours begin and end apart')
      .nullable(),
  }),
  z.strictObject({
    name: z.literal('policy exempt'),
    machine: z.string().min(1),
    until: z.string().regex(/^(today|tomorrow|\d{4}-\d{2}-\d{2})$/),
  }),
  z.strictObject({ name: z.literal('policy idle'), hours: z.number().int().min(1).max(168).nullable() }),
  z.strictObject({ name: z.literal('policy off') }),
  z.strictObject({
    name: z.literal('assign'),
    machine: z.string().min(1),
    owner: z.string().regex(/^[UW][A-Z0-9]+$/),
  }),
]);

// Keeps the oracle honest: it must describe exactly the Command type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const oracleMatchesCommand: Same<z.infer<typeof commandSchema>, Command> = true;

const USAGE_LINES = new Set(COMMANDS.map((spec) => spec.usage));

function checkAnswer(text: string, result: ParseResult): void {
  if (result.ok) {
    const checked = commandSchema.safeParse(result.command);
    if (!checked.success) {
      throw new Error(
        `${JSON.stringify(text)} parsed to an invalid command: ${z.prettifyError(checked.error)}`,
      );
    }
    return;
  }
  expect(result.error).not.toBe(PARSER_FAILURE);
  expect(result.error.trim()).not.toBe('');
  expect(
    result.usage === GENERAL_USAGE || result.usage.split('\n').every((line) => USAGE_LINES.has(line)),
  ).toBe(true);
  if (result.secretDetected) expect(result.error).toBe(SECRET_REFUSAL);
}

// ---------------------------------------------------------------------------------------------------
// Random command texts: the grammar's vocabulary mixed with arbitrary strings, quotes and unicode.

const vocabulary = fc.constantFrom(
  ...COMMAND_WORDS,
  ...COMMANDS.map((spec) => spec.name),
  'show',
  'text',
  'delete',
  'create',
  'off',
  'OFF',
  'grant',
  'revoke',
  'weekdays',
  'daily',
  ...MACHINE_STATES,
  ...MACHINE_TYPES,
  ...REGIONS.map((region) => `"${region}"`),
  'CA1',
  'ny2',
  'AMS1',
  '--no-wait',
  '—no-wait',
  '--release-ip',
  '--timeout',
  '--timeout=10m',
  '--',
  '-h',
  '--help',
  '90s',
  '1h30m',
  '0s',
  '25h',
  '30',
  '19:00',
  '9:5',
  '24:00',
  '2025-03',
  '2025-13',
  '*',
  '* * 1-5',
  '1-5',
  'mon,wed',
  '0 19 * * 1-5',
  '<@U0123ABCD|bob>',
  '<@W1ABC>',
  '<@U0123ABCD|Bob Smith>',
  '<#C0123|ops>',
  '<!here>',
  '<mailto:a@b.c|a@b.c>',
  '<https://example.com>',
  '@bob',
  '&lt;',
  '&gt;',
  '&amp;',
  '<',
  '>',
  '"',
  "'",
  '“',
  '”',
  '‘',
  '’',
  '\\',
  '\\"',
  '=',
  '==',
  'name="My Machine"',
  "name='x y'",
  'machineName=“Box”',
  'id=x',
  'psl0b3hq8',
  '\u200B',
  '\uFEFF',
);
const filterKey = fc.constantFrom(
  ...new Set([...Object.values(FILTER_KEYS).flat(), 'machineName', 'size', 'limit', 'skip', 'ID', '9x', '']),
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'binary-ascii' }),
  fc.string({ unit: loneSurrogate, maxLength: 3 }),
);
const keyValue = fc
  .tuple(filterKey, fc.oneof(vocabulary, anyString), fc.constantFrom('', '"', "'", '“'))
  .map(([key, value, quote]) => `${key}=${quote}${value}${quote === '“' ? '”' : quote}`);
const token = fc.oneof(
  { weight: 5, arbitrary: vocabulary },
  { weight: 2, arbitrary: keyValue },
  { weight: 2, arbitrary: anyString },
  { weight: 1, arbitrary: anyString.map((text) => `"${text}"`) },
);
const separator = fc.constantFrom(' ', ' ', '  ', '\t', '\n', '\u00A0', '\u2003', '');
const joined = ([first, rest]: [string, [string, string][]]) =>
  first + rest.map(([sep, part]) => sep + part).join('');
const commandText = fc.oneof(
  // Anything goes: most of these are errors.
  fc
    .tuple(fc.oneof(vocabulary, anyString), fc.array(fc.tuple(separator, token), { maxLength: 8 }))
    .map(joined),
  // Shaped like the grammar, so that many parse and the oracle gets to check the commands.
  fc
    .tuple(fc.constantFrom(...COMMAND_WORDS), fc.array(fc.tuple(fc.constant(' '), token), { maxLength: 3 }))
    .map(joined),
);

describe('parseCommand on random input', () => {
  it('has an oracle that describes exactly the Command type', () => {
    expect(oracleMatchesCommand).toBe(true);
  });

  it('never throws, and answers a valid command or an error with a usage line', () => {
    fc.assert(
      fc.property(commandText, (text) => {
        checkAnswer(text, parseCommand(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('survives arbitrary strings of any unicode, including lone surrogates', () => {
    fc.assert(
      fc.property(anyString, (text) => {
        checkAnswer(text, parseCommand(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses texts around the length limit cleanly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_COMMAND_LENGTH - 5, max: MAX_COMMAND_LENGTH + 5 }),
        fc.constantFrom('share ', 'show "', 'list a=', 'x'),
        (length, prefix) => {
          const text = (prefix + 'ab '.repeat(length)).slice(0, length);
          const result = parseCommand(text);
          checkAnswer(text, result);
          if (length > MAX_COMMAND_LENGTH) expect(result.ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses any command with a pasted hex key, wherever it sits, without echoing it', () => {
    const hexKey = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 40 });
    fc.assert(
      fc.property(commandText, hexKey, fc.nat(), (text, key, at) => {
        const cut = at % (text.length + 1);
        const withKey = `${text.slice(0, cut)} ${key} ${text.slice(cut)}`;
        const result = parseCommand(withKey);
        expect(result).toMatchObject({ ok: false, secretDetected: true, error: SECRET_REFUSAL });
        if (!result.ok) expect(result.error).not.toContain(key);
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------
// Round trips: a command written out the way Slack would send it parses back to the same command.

/** Quotes a value and HTML-escapes it the way Slack does, so any text survives as one token. */
function quoted(value: string): string {
  const slackEscaped = value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `"${slackEscaped.replace(/[\\"\u201C-\u201F]/g, (ch) => `\\${ch}`)}"`;
}

// Zero-width characters are dropped by the tokenizer and cannot be part of a name.
const machineName = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 20 })
  .filter((name) => name.trim() === name && name !== '' && !/[\u200B-\u200D\u2060\uFEFF]/.test(name));
const value = machineName;
const createKey = fc
  .stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/)
  .filter((key) => key !== 'region' && key !== 'machineType');

const pair = (text: string, command: Command): [string, Command] => [text, command];

const keyValueText = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([key, text]) => `${key}=${quoted(text)}`)
    .join(' ');

const roundTrips: fc.Arbitrary<[string, Command]> = fc.oneof(
  fc
    .tuple(fc.constantFrom('start' as const, 'stop' as const, 'restart' as const), machineName, fc.boolean())
    .map(([name, machine, noWait]) =>
      pair(`${name} ${quoted(machine)}${noWait ? ' --no-wait' : ''}`, { name, machine, noWait }),
    ),
  fc
    .tuple(machineName, fc.constantFrom(...WAITABLE_STATES), fc.integer({ min: 1, max: 24 * 60 }))
    .map(([machine, state, minutes]) =>
      pair(`wait ${quoted(machine)} ${state} --timeout ${minutes}m`, {
        name: 'wait',
        machine,
        state,
        timeoutMs: minutes * 60_000,
      }),
    ),
  fc
    .tuple(machineName, fc.dictionary(createKey, value, { minKeys: 1, maxKeys: 4 }))
    .map(([machine, params]) =>
      pair(`update ${quoted(machine)} ${keyValueText(params)}`, {
        name: 'update',
        machine,
        params: { ...params },
      }),
    ),
  fc
    .dictionary(createKey, value, { minKeys: 1, maxKeys: 6 })
    .map((params) => pair(`create ${keyValueText(params)}`, { name: 'create', params: { ...params } })),
  fc
    .tuple(
      fc.constantFrom('list' as const, 'templates' as const, 'users' as const, 'networks' as const),
      fc.nat(),
      value,
    )
    .map(([name, at, text]) => {
      const keys: readonly string[] = FILTER_KEYS[name];
      const key = keys[at % keys.length] ?? 'id';
      // Values with a known set are read against it (a region, a machine's state): one of the set.
      const filterValue =
        key === 'region'
          ? 'Europe (AMS1)'
          : name === 'list' && key === 'state'
            ? (MACHINE_STATES[at % MACHINE_STATES.length] ?? 'off')
            : text;
      return pair(`${name} ${key}=${quoted(filterValue)}`, { name, filters: { [key]: filterValue } });
    }),
  fc.tuple(machineName, fc.boolean()).map(([machine, releasePublicIp]) =>
    pair(`destroy ${quoted(machine)}${releasePublicIp ? ' --release-ip' : ''}`, {
      name: 'destroy',
      machine,
      releasePublicIp,
    }),
  ),
  fc
    .tuple(
      machineName,
      fc.constantFrom('grant' as const, 'revoke' as const),
      fc.stringMatching(/^U[A-Z0-9]{8,10}$/),
    )
    .map(([machine, action, slackUserId]) =>
      pair(`access ${quoted(machine)} ${action} <@${slackUserId}|someone>`, {
        name: 'access',
        machine,
        action,
        user: { kind: 'slack', slackUserId },
      }),
    ),
  fc
    .tuple(machineName, fc.integer({ min: 2000, max: 2999 }), fc.integer({ min: 1, max: 12 }))
    .map(([machine, year, month]) => {
      const billingMonth = `${year}-${String(month).padStart(2, '0')}`;
      return pair(`usage ${quoted(machine)} ${billingMonth}`, {
        name: 'usage',
        machine,
        month: billingMonth,
      });
    }),
  fc
    .uniqueArray(machineName, { minLength: 1, maxLength: 5 })
    .map((machines) =>
      pair(`share ${machines.map(quoted).join(' ')}`, { name: 'share', machines, with: [] }),
    ),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([hour, minute]) => {
    const time = `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
    return pair(`remind ${time} daily`, {
      name: 'remind',
      time,
      schedule: 'daily',
      cron: `${minute} ${hour} * * *`,
    });
  }),
);

describe('parseCommand round trips', () => {
  it('parses a command written out with quoted, Slack-escaped values back to the same command', () => {
    fc.assert(
      fc.property(roundTrips, ([text, command]) => {
        const result = parseCommand(text);
        // A random value can look like a key; refusing it is the right answer, not a round-trip failure.
        if (!result.ok && result.secretDetected) return;
        expect(result).toEqual({ ok: true, command });
      }),
      { numRuns: 3000 },
    );
  });
});
