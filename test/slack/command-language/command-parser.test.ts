import { describe, expect, it } from 'vitest';
import { DEFAULT_WAIT_TIMEOUT_MS } from '../../../src/features/watches/commands/wait.js';
import { MAX_COMMAND_LENGTH, SECRET_REFUSAL } from '../../../src/slack/command-language/command-parser.js';
import {
  COMMANDS,
  type Command,
  type CommandName,
  commandsForTopic,
  type ParseResult,
  parseCommand,
  usageOf,
} from '../../support/commands.js';

function parsed(text: string): Command {
  const result = parseCommand(text);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(text)} to parse, got: ${result.error}`);
  return result.command;
}

function failure(text: string): Extract<ParseResult, { ok: false }> {
  const result = parseCommand(text);
  if (result.ok)
    throw new Error(`expected ${JSON.stringify(text)} to fail, got ${JSON.stringify(result.command)}`);
  return result;
}

// One example per command. Typed as a record over every CommandName, so adding a command to the
// union without an example (or a grammar entry, which command-grammar.ts enforces) fails to compile.
const EXAMPLES: Record<CommandName, { text: string; command: Command }> = {
  help: { text: 'help', command: { name: 'help', topic: null } },
  login: { text: 'login', command: { name: 'login' } },
  logout: { text: 'logout', command: { name: 'logout' } },
  whoami: { text: 'whoami', command: { name: 'whoami' } },
  list: { text: 'list state=ready', command: { name: 'list', filters: { state: 'ready' } } },
  show: { text: 'show psl0b3hq8', command: { name: 'show', machine: 'psl0b3hq8' } },
  start: { text: 'start gpu-1', command: { name: 'start', machine: 'gpu-1', noWait: false } },
  stop: { text: 'stop gpu-1 --no-wait', command: { name: 'stop', machine: 'gpu-1', noWait: true } },
  restart: { text: 'restart gpu-1', command: { name: 'restart', machine: 'gpu-1', noWait: false } },
  wait: {
    text: 'wait gpu-1 ready --timeout 10m',
    command: { name: 'wait', machine: 'gpu-1', state: 'ready', timeoutMs: 600_000 },
  },
  create: { text: 'create', command: { name: 'create', params: null } },
  update: {
    text: 'update gpu-1 shutdownTimeoutInHours=2',
    command: { name: 'update', machine: 'gpu-1', params: { shutdownTimeoutInHours: '2' } },
  },
  destroy: { text: 'destroy gpu-1', command: { name: 'destroy', machine: 'gpu-1', releasePublicIp: false } },
  access: {
    text: 'access gpu-1 grant <@U0123ABCD|bob>',
    command: {
      name: 'access',
      machine: 'gpu-1',
      action: 'grant',
      user: { kind: 'slack', slackUserId: 'U0123ABCD' },
    },
  },
  usage: { text: 'usage gpu-1 2025-03', command: { name: 'usage', machine: 'gpu-1', month: '2025-03' } },
  claim: { text: 'claim sam-cad', command: { name: 'claim', machine: 'sam-cad' } },
  assign: {
    text: 'assign team-build <@U0SAM|sam>',
    command: { name: 'assign', machine: 'team-build', owner: 'U0SAM' },
  },
  availability: {
    text: 'availability CA1 P5000',
    command: { name: 'availability', region: 'West Coast (CA1)', machineType: 'P5000' },
  },
  scripts: { text: 'scripts', command: { name: 'scripts' } },
  'script show': { text: 'script show sc1', command: { name: 'script show', scriptId: 'sc1' } },
  'script text': { text: 'script text sc1', command: { name: 'script text', scriptId: 'sc1' } },
  'script delete': { text: 'script delete sc1', command: { name: 'script delete', scriptId: 'sc1' } },
  'script create': { text: 'script create', command: { name: 'script create' } },
  templates: { text: 'templates os=ubuntu', command: { name: 'templates', filters: { os: 'ubuntu' } } },
  users: { text: 'users email=a@b.c', command: { name: 'users', filters: { email: 'a@b.c' } } },
  networks: { text: 'networks', command: { name: 'networks', filters: {} } },
  drives: { text: 'drives', command: { name: 'drives' } },
  'drive create': { text: 'drive create', command: { name: 'drive create' } },
  'drive delete': { text: 'drive delete sd1', command: { name: 'drive delete', driveId: 'sd1' } },
  share: { text: 'share gpu-1 gpu-2', command: { name: 'share', machines: ['gpu-1', 'gpu-2'], with: [] } },
  shares: { text: 'shares', command: { name: 'shares' } },
  remind: {
    text: 'remind 19:00',
    command: { name: 'remind', time: '19:00', schedule: 'weekdays', cron: '0 19 * * 1-5' },
  },
  reminders: { text: 'reminders', command: { name: 'reminders' } },
  'remind off': { text: 'remind off', command: { name: 'remind off', reminder: null } },
  approvals: {
    text: 'approvals <#C0APPROVE|approvals> --expires 48h',
    command: { name: 'approvals', channel: 'C0APPROVE', lifetimeMs: 48 * 3_600_000 },
  },
  requests: { text: 'requests', command: { name: 'requests' } },
  spend: { text: 'spend 2026-10 page=3', command: { name: 'spend', month: '2026-10', page: 3 } },
  digest: {
    text: 'digest <#C0OPS|ops> weekly 9:30',
    command: {
      name: 'digest',
      channel: 'C0OPS',
      schedule: 'weekly',
      time: '09:30',
      cron: '30 9 * * 1',
      timezone: null,
    },
  },
  'digest off': { text: 'digest off', command: { name: 'digest off' } },
  alerts: {
    text: 'alerts default 6h',
    command: { name: 'alerts', scope: 'team', thresholdMs: 6 * 3_600_000, machine: null },
  },
  budget: {
    text: 'budget <@U0SAM|sam> $1,300.5',
    command: { name: 'budget', subject: 'U0SAM', amountCents: 130_050, off: false },
  },
  steps: { text: 'steps ON', command: { name: 'steps', enabled: true } },
  policy: { text: 'policy', command: { name: 'policy' } },
  'policy max-run': {
    text: 'policy max-run 1h30m',
    command: { name: 'policy max-run', limitMs: 90 * 60_000 },
  },
  'policy off-hours': {
    text: 'policy off-hours 8pm-7:00 weekdays Europe/Berlin',
    command: {
      name: 'policy off-hours',
      offHours: { start: '20:00', end: '07:00', days: 'weekdays', timezone: 'Europe/Berlin' },
    },
  },
  'policy exempt': {
    text: 'policy exempt "team build" until 2026-12-24',
    command: { name: 'policy exempt', machine: 'team build', until: '2026-12-24' },
  },
  'policy idle': { text: 'policy idle 2h', command: { name: 'policy idle', hours: 2 } },
  'policy off': { text: 'policy off', command: { name: 'policy off' } },
};

describe('the grammar table', () => {
  it('has exactly one entry per command, each with a usage line and a summary', () => {
    const names = COMMANDS.map((spec) => spec.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(Object.keys(EXAMPLES).sort());
    for (const spec of COMMANDS) {
      expect(spec.usage.startsWith(`/ps ${spec.name}`)).toBe(true);
      expect(spec.summary.length).toBeGreaterThan(0);
    }
  });

  it('gives every parsed command a grammar entry', () => {
    for (const { text } of Object.values(EXAMPLES)) {
      const command = parsed(text);
      expect(COMMANDS.some((spec) => spec.name === command.name)).toBe(true);
    }
  });

  it('finds the commands a help topic names: one, or a group', () => {
    expect(commandsForTopic('script')?.map((spec) => spec.name)).toEqual([
      'script show',
      'script text',
      'script delete',
      'script create',
    ]);
    expect(commandsForTopic('show')?.map((spec) => spec.usage)).toEqual(['/ps show <machine>']);
    expect(commandsForTopic('Remind OFF')?.map((spec) => spec.name)).toEqual(['remind off']);
    expect(commandsForTopic('deploy')).toBeNull();
  });
});

describe('parseCommand reads every command', () => {
  it.each(Object.entries(EXAMPLES))('%s', (_name, { text, command }) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });

  it.each<[string, Command]>([
    ['', { name: 'help', topic: null }],
    ['   ', { name: 'help', topic: null }],
    ['help start', { name: 'help', topic: 'start' }],
    ['help Script  Show', { name: 'help', topic: 'script show' }],
    ['help drive', { name: 'help', topic: 'drive' }],
    ['--help', { name: 'help', topic: null }],
    ['list', { name: 'list', filters: {} }],
    [
      'list state=off region=ams1 machineid=ps123abc',
      { name: 'list', filters: { state: 'off', region: 'Europe (AMS1)', machineId: 'ps123abc' } },
    ],
    ['Start gpu-1', { name: 'start', machine: 'gpu-1', noWait: false }],
    ['start --no-wait gpu-1', { name: 'start', machine: 'gpu-1', noWait: true }],
    ['restart gpu-1 —no-wait', { name: 'restart', machine: 'gpu-1', noWait: true }],
    ['wait gpu-1 OFF', { name: 'wait', machine: 'gpu-1', state: 'off', timeoutMs: DEFAULT_WAIT_TIMEOUT_MS }],
    [
      'wait gpu-1 serviceready --timeout=1h30m',
      { name: 'wait', machine: 'gpu-1', state: 'serviceready', timeoutMs: 5_400_000 },
    ],
    ['wait --timeout 90s gpu-1 ready', { name: 'wait', machine: 'gpu-1', state: 'ready', timeoutMs: 90_000 }],
    [
      'create machineName="GPU box" region=NY2 machineType=p5000 size=250 billingType=hourly templateId=tkni3aa4',
      {
        name: 'create',
        params: {
          machineName: 'GPU box',
          region: 'East Coast (NY2)',
          machineType: 'P5000',
          size: '250',
          billingType: 'hourly',
          templateId: 'tkni3aa4',
        },
      },
    ],
    [
      'update "My Machine" machineName="New name" dynamicPublicIp=true',
      { name: 'update', machine: 'My Machine', params: { machineName: 'New name', dynamicPublicIp: 'true' } },
    ],
    ['destroy gpu-1 --release-ip', { name: 'destroy', machine: 'gpu-1', releasePublicIp: true }],
    [
      'access gpu-1 REVOKE <@W0123ABCD>',
      {
        name: 'access',
        machine: 'gpu-1',
        action: 'revoke',
        user: { kind: 'slack', slackUserId: 'W0123ABCD' },
      },
    ],
    [
      'access gpu-1 grant uijn3il',
      { name: 'access', machine: 'gpu-1', action: 'grant', user: { kind: 'paperspace', userId: 'uijn3il' } },
    ],
    ['usage gpu-1', { name: 'usage', machine: 'gpu-1', month: null }],
    ['availability', { name: 'availability', region: null, machineType: null }],
    ['availability gpu+', { name: 'availability', region: null, machineType: 'GPU+' }],
    ['availability v100 ams1', { name: 'availability', region: 'Europe (AMS1)', machineType: 'V100' }],
    // Any other label is the machine type: the account's API decides whether it reports on it.
    ['availability c4', { name: 'availability', region: null, machineType: 'C4' }],
    ['availability ny2 A100', { name: 'availability', region: 'East Coast (NY2)', machineType: 'A100' }],
    [
      'availability "east coast (ny2)"',
      { name: 'availability', region: 'East Coast (NY2)', machineType: null },
    ],
    ['share a b a', { name: 'share', machines: ['a', 'b'], with: [] }],
    [
      'share a <@U0SAM|sam> b <@U0ADA> <@U0SAM>',
      { name: 'share', machines: ['a', 'b'], with: ['U0SAM', 'U0ADA'] },
    ],
    ['remind 9:30 daily', { name: 'remind', time: '09:30', schedule: 'daily', cron: '30 9 * * *' }],
    ['remind 7pm', { name: 'remind', time: '19:00', schedule: 'weekdays', cron: '0 19 * * 1-5' }],
    ['remind 7:30PM daily', { name: 'remind', time: '19:30', schedule: 'daily', cron: '30 19 * * *' }],
    ['remind 12am', { name: 'remind', time: '00:00', schedule: 'weekdays', cron: '0 0 * * 1-5' }],
    ['remind 12:15pm', { name: 'remind', time: '12:15', schedule: 'weekdays', cron: '15 12 * * 1-5' }],
    ['remind 19:05 weekdays', { name: 'remind', time: '19:05', schedule: 'weekdays', cron: '5 19 * * 1-5' }],
    ['remind 18:00 * * 1-4', { name: 'remind', time: '18:00', schedule: 'cron', cron: '0 18 * * 1-4' }],
    ['remind 18:00 "1-15 * *"', { name: 'remind', time: '18:00', schedule: 'cron', cron: '0 18 1-15 * *' }],
    [
      'remind 08:00 mon,wed,fri',
      { name: 'remind', time: '08:00', schedule: 'cron', cron: '0 8 * * mon,wed,fri' },
    ],
    ['remind off 7pm', { name: 'remind off', reminder: '7pm' }],
  ])('%j', (text, command) => {
    expect(parseCommand(text)).toEqual({ ok: true, command });
  });
});

describe('parseCommand quoting', () => {
  it('reads quoted machine names with spaces, in straight and smart quotes', () => {
    expect(parsed('show "My Machine"')).toEqual({ name: 'show', machine: 'My Machine' });
    expect(parsed("show 'My Machine'")).toEqual({ name: 'show', machine: 'My Machine' });
    expect(parsed('show “My Machine”')).toEqual({ name: 'show', machine: 'My Machine' });
    expect(parsed('show ‘My Machine’')).toEqual({ name: 'show', machine: 'My Machine' });
  });

  it('reads quoted values in key=value pairs, with escaped quotes inside', () => {
    expect(parsed(String.raw`create machineName="Ann's \"big\" box" size=50`)).toEqual({
      name: 'create',
      params: { machineName: 'Ann\'s "big" box', size: '50' },
    });
  });

  it('keeps an = inside a quoted machine name', () => {
    expect(parsed('show "a=b"')).toEqual({ name: 'show', machine: 'a=b' });
  });

  it('reads the characters Slack sends HTML-escaped', () => {
    expect(parsed('create machineName="R&amp;D &lt;gpu&gt;"')).toEqual({
      name: 'create',
      params: { machineName: 'R&D <gpu>' },
    });
  });

  it('unwraps e-mail addresses Slack turned into links', () => {
    expect(parsed('create notificationEmail=<mailto:ops@example.com|ops@example.com>')).toEqual({
      name: 'create',
      params: { notificationEmail: 'ops@example.com' },
    });
  });

  it('answers an unterminated quote with the usage of the command being typed', () => {
    const result = failure('show "My Machine');
    expect(result.error).toContain('Unterminated quote');
    expect(result.usage).toBe(usageOf('show'));
  });
});

describe('parseCommand errors name the argument and show the usage line', () => {
  it.each<[string, CommandName, string]>([
    ['logout now', 'logout', '"now"'],
    ['whoami x', 'whoami', '"x"'],
    ['list running', 'list', '"running"'],
    ['list stat=ready', 'list', '"stat"'],
    ['list limit=5', 'list', '"limit"'],
    ['list state=ready state=off', 'list', '"state"'],
    ['list state=', 'list', '"state"'],
    ['list =ready', 'list', '"=ready"'],
    ['list --all', 'list', '"--all"'],
    ['show', 'show', '<machine>'],
    ['show ""', 'show', '<machine>'],
    ['show a b', 'show', '"b"'],
    ['show name=gpu', 'show', '"name=gpu"'],
    ['show <@U0123ABCD>', 'show', '<machine>'],
    ['start', 'start', '<machine>'],
    ['start gpu-1 --force', 'start', '"--force"'],
    ['stop gpu-1 --no-wait --no-wait', 'stop', '--no-wait'],
    ['restart gpu-1 --no-wait=yes', 'restart', '--no-wait'],
    ['wait gpu-1', 'wait', '<state>'],
    ['wait gpu-1 running', 'wait', '"running"'],
    ['wait gpu-1 ready --timeout', 'wait', '--timeout'],
    ['wait gpu-1 ready --timeout 30', 'wait', '--timeout "30"'],
    ['wait gpu-1 ready --timeout 0s', 'wait', '--timeout "0s"'],
    ['wait gpu-1 ready --timeout 25h', 'wait', '--timeout "25h"'],
    ['wait gpu-1 ready extra', 'wait', '"extra"'],
    ['alerts soon', 'alerts', '"soon"'],
    ['alerts 6', 'alerts', '"6"'],
    ['alerts 8d', 'alerts', '"8d"'],
    ['alerts 169h', 'alerts', '"169h"'],
    ['alerts 6h 7h', 'alerts', '"7h"'],
    ['alerts default', 'alerts', 'Missing the default'],
    ['alerts default 6h off', 'alerts', '"off"'],
    ['policy maxrun 12h', 'policy', 'Did you mean "max-run"'],
    ['policy max-run 30s', 'policy max-run', 'the shortest is 1m'],
    ['policy max-run 12', 'policy max-run', '"12"'],
    ['policy off-hours 20:00', 'policy off-hours', '"20:00"'],
    ['policy off-hours 20:00-07:00 weekends', 'policy off-hours', '"weekends"'],
    ['policy exempt team-build tomorrow', 'policy exempt', 'Missing until'],
    ['policy exempt team-build until friday', 'policy exempt', '"friday"'],
    ['steps yes', 'steps', '"yes"'],
    ['steps on off', 'steps', '"off"'],
    ['steps on=1', 'steps', '"on=1"'],
    ['create gpu-1', 'create', '"gpu-1"'],
    ['create size=50 size=60', 'create', '"size"'],
    ['create 9lives=1', 'create', '"9lives"'],
    ['create machineName=', 'create', '"machineName"'],
    ['create --modal', 'create', '"--modal"'],
    ['update gpu-1', 'update', 'key=value'],
    ['update', 'update', '<machine>'],
    ['update gpu-1 extra machineName=x', 'update', '"extra"'],
    ['destroy gpu-1 --force', 'destroy', '"--force"'],
    ['access gpu-1', 'access', 'grant or revoke'],
    ['access gpu-1 give <@U0123ABCD>', 'access', '"give"'],
    ['access gpu-1 grant', 'access', '<@user|userId>'],
    ['access gpu-1 grant @bob', 'access', '"@bob"'],
    ['access gpu-1 grant "bob smith"', 'access', '"bob smith"'],
    ['access gpu-1 grant <@U0123ABCD> <@U0456EFGH>', 'access', '"@U0456EFGH"'],
    ['usage gpu-1 2025-13', 'usage', '"2025-13"'],
    ['usage gpu-1 2025-00', 'usage', '"2025-00"'],
    ['usage gpu-1 March', 'usage', '"March"'],
    ['availability CA1 NY2', 'availability', '"NY2"'],
    ['availability P4000 P5000', 'availability', '"P5000"'],
    ['availability ""', 'availability', '"" is not a machine type'],
    ['availability ny2 "  "', 'availability', 'is not a machine type'],
    ['scripts all', 'scripts', '"all"'],
    ['script show', 'script show', '<id>'],
    ['script text a b', 'script text', '"b"'],
    ['script delete "a b"', 'script delete', '"a b"'],
    ['script create now', 'script create', '"now"'],
    ['templates foo=bar', 'templates', '"foo"'],
    ['users machineId=x', 'users', '"machineId"'],
    ['networks netmask=a netmask=b', 'networks', '"netmask"'],
    ['drives x', 'drives', '"x"'],
    ['drive delete', 'drive delete', '<id>'],
    ['drive create big', 'drive create', '"big"'],
    ['share', 'share', '<machine>'],
    ['shares x', 'shares', '"x"'],
    ['remind', 'remind', '<time>'],
    ['remind 13pm', 'remind', '"13pm"'],
    ['remind 0am', 'remind', '"0am"'],
    ['remind 24:00', 'remind', '"24:00"'],
    ['remind 12:60', 'remind', '"12:60"'],
    ['remind 19:00 0 19 * * 1-5', 'remind', '5 fields'],
    ['remind 19:00 * * 8', 'remind', '"* * 8"'],
    ['remind 19:00 sometimes', 'remind', '"sometimes" is not days I know'],
    ['reminders all', 'reminders', '"all"'],
    ['remind off a b', 'remind off', '"b"'],
  ])('%j', (text, name, named) => {
    const result = failure(text);
    expect(result.error).toContain(named);
    expect(result.usage).toBe(usageOf(name));
  });

  it('names the common filters when a filter is unknown, and points id to machineId', () => {
    const result = failure('list id=ps123');
    expect(result.error).toContain('Did you mean "machineId"?');
    expect(result.error).toContain('Use state, region, machineType, name, owner, or any of 22 more fields.');
    expect(failure('users nom=x').error).toContain(
      'Use email, firstname, lastname, or any of 3 more fields.',
    );
    expect(result.error).not.toContain('limit');
    expect(result.error).not.toContain('skip');
  });

  it('suggests a state filter for a bare machine state after list', () => {
    expect(failure('list ready').error).toContain('state=ready');
  });

  it('names the script and drive subcommands when one is missing or unknown, with the group usage', () => {
    const missing = failure('script');
    expect(missing.error).toBe('Missing script subcommand: use show, text, delete or create.');
    expect(missing.usage).toBe(
      ['script show', 'script text', 'script delete', 'script create']
        .map((n) => usageOf(n as CommandName))
        .join('\n'),
    );
    expect(failure('script shwo sc1').error).toContain('Did you mean "show"?');
    expect(failure('script list').error).toContain('/ps scripts');
    expect(failure('drive remove sd1').error).toContain('"remove"');
  });

  it('answers whatever follows login as a pasted key, even one the detector would miss', () => {
    for (const text of ['login hunter2', 'LOGIN  my key', 'login "unbalanced', 'login\tps_short']) {
      const result = failure(text);
      expect(result).toMatchObject({ error: SECRET_REFUSAL, usage: usageOf('login'), secretDetected: true });
      expect(result.error).not.toMatch(/hunter2|my key|unbalanced|ps_short/);
    }
  });

  it('shortens a long typed value when echoing it', () => {
    const result = failure(`wait gpu-1 ${'x'.repeat(200)}`);
    expect(result.error).toContain(`"${'x'.repeat(40)}…"`);
    expect(result.error.length).toBeLessThan(150);
  });
});

describe('parseCommand unknown commands', () => {
  it.each([
    ['strat gpu-1', 'start'],
    ['lsit', 'list'],
    ['restat gpu-1', 'restart'],
    ['avail', 'availability'],
    ['remnd 19:00', 'remind'],
    ['scirpts', 'scripts'],
  ])('suggests the closest command for %j', (text, suggestion) => {
    const result = failure(text);
    expect(result.error).toContain(`Did you mean "${suggestion}"?`);
    expect(result.usage).toBe(usageOf('help'));
  });

  it('points to /ps help when nothing is close', () => {
    const result = failure('deploy everything');
    expect(result.error).toBe('Unknown command "deploy". Type /ps help to see the commands.');
    expect(result.usage).toBe('/ps help [command]');
  });

  it('points a bare filter to list', () => {
    expect(failure('state=ready').error).toContain('/ps list');
  });

  it('suggests a command for an unknown help topic', () => {
    const result = failure('help strat');
    expect(result.error).toContain('Did you mean "start"?');
    expect(result.usage).toBe(usageOf('help'));
  });
});

describe('parseCommand refuses pasted secrets', () => {
  const key = '3f9a1c0be27d4e6f8a5b9c0d1e2f3a4b';

  it.each([
    `login ${key}`,
    key,
    `create machineName=x apiKey=${key}`,
    'xoxb-1234567890-1234567890123-AbCdEfGhIj',
  ])('refuses %j without echoing it', (text) => {
    const result = parseCommand(text);
    expect(result).toEqual({
      ok: false,
      error: SECRET_REFUSAL,
      usage: usageOf('login'),
      secretDetected: true,
    });
  });

  it('refuses a secret before anything else, even in an overlong or badly quoted text', () => {
    expect(parseCommand(`show "${key}`)).toMatchObject({ secretDetected: true });
    expect(parseCommand(`${'x '.repeat(MAX_COMMAND_LENGTH)}${key}`)).toMatchObject({ secretDetected: true });
  });
});

describe('parseCommand limits', () => {
  it('refuses texts longer than the limit with their length', () => {
    const result = failure(`share ${'gpu '.repeat(MAX_COMMAND_LENGTH / 4)}`);
    expect(result.error).toBe(
      `The command is too long: ${MAX_COMMAND_LENGTH + 6} characters, and the limit is 4000.`,
    );
  });

  it('accepts a text right at the limit', () => {
    const text = `share ${'g '.repeat((MAX_COMMAND_LENGTH - 6) / 2)}`;
    expect(text).toHaveLength(MAX_COMMAND_LENGTH);
    expect(parseCommand(text)).toEqual({ ok: true, command: { name: 'share', machines: ['g'], with: [] } });
  });

  it('reads a missing text as an empty command instead of throwing', () => {
    expect(parseCommand(undefined as unknown as string)).toEqual({
      ok: true,
      command: { name: 'help', topic: null },
    });
  });
});
