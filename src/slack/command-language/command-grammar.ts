// The `/ps` command grammar in one place: what each command carries once parsed (`Command`), and the
// usage line and summary of each (`COMMANDS`). `/ps help` (with command-help.ts) and the parser's
// error messages both read the table, so the help a person sees and the usage shown with an error
// cannot disagree.
import type { Region, WaitableState } from '../../paperspace/constants.js';
import { SLASH_COMMAND } from '../ids.js';

/** Raw `key=value` arguments; the service validates the values with the API client's schemas. */
export type KeyValues = Record<string, string>;

/** Who `access` grants to or revokes from: a Slack mention (resolved later) or a Paperspace user id. */
export type AccessUser = { kind: 'slack'; slackUserId: string } | { kind: 'paperspace'; userId: string };

/** How a reminder repeats; `cron` means the user gave the day fields of a cron expression. */
type ReminderSchedule = 'weekdays' | 'daily' | 'cron';

export type Command =
  | { name: 'help'; topic: string | null }
  | { name: 'login' }
  | { name: 'logout' }
  | { name: 'whoami' }
  | { name: 'list'; filters: KeyValues }
  | { name: 'show'; machine: string }
  | { name: 'start'; machine: string; noWait: boolean }
  | { name: 'stop'; machine: string; noWait: boolean }
  | { name: 'restart'; machine: string; noWait: boolean }
  | { name: 'wait'; machine: string; state: WaitableState; timeoutMs: number }
  /** `params` null: no arguments were given, so open the create modal. */
  | { name: 'create'; params: KeyValues | null }
  | { name: 'update'; machine: string; params: KeyValues }
  | { name: 'destroy'; machine: string; releasePublicIp: boolean }
  | { name: 'access'; machine: string; action: 'grant' | 'revoke'; user: AccessUser }
  /** `month` null: the current billing month (the service knows the clock and the user's time zone). */
  | { name: 'usage'; machine: string; month: string | null }
  /**
   * A null field means "every": every region, every type the API reports on. The type is checked
   * against the account's catalog when the command runs (the contract's dedicated GPU types, v1's
   * templates' types), so here it is any label, spelled as the contract spells it when it knows it.
   */
  | { name: 'availability'; region: Region | null; machineType: string | null }
  | { name: 'scripts' }
  | { name: 'script show'; scriptId: string }
  | { name: 'script text'; scriptId: string }
  | { name: 'script delete'; scriptId: string }
  | { name: 'script create' }
  | { name: 'templates'; filters: KeyValues }
  | { name: 'users'; filters: KeyValues }
  | { name: 'networks'; filters: KeyValues }
  | { name: 'drives' }
  | { name: 'drive create' }
  | { name: 'drive delete'; driveId: string }
  /** `with`: the Slack users mentioned, who get access where a share makes them accessors (v1). */
  | { name: 'share'; machines: string[]; with: string[] }
  | { name: 'shares' }
  /**
   * `time` is `HH:MM` (24-hour, however it was typed) in the user's time zone; `cron` is the full five-field expression built from the
   * time and the days (`0 19 * * 1-5`), already checked by node-cron.
   */
  | { name: 'remind'; time: string; schedule: ReminderSchedule; cron: string }
  | { name: 'reminders' }
  /** `reminderId` null: turn off every reminder of the user. */
  | { name: 'remind off'; reminderId: string | null }
  /** `channel` null: requests go to each administrator's DM again; `lifetimeMs` null: the default. */
  | { name: 'approvals'; channel: string | null; lifetimeMs: number | null }
  | { name: 'requests' }
  /** `month` null: the current billing month. */
  | { name: 'spend'; month: string | null; page: number }
  /**
   * The team digest in `channel`; `time` is `HH:MM` in the administrator's time zone, `cron` the
   * five-field expression built from it (weekly: Mondays). `timezone` null: the administrator's Slack
   * time zone; otherwise an IANA name as typed, which the command checks.
   */
  | {
      name: 'digest';
      channel: string;
      schedule: 'daily' | 'weekly';
      time: string;
      cron: string;
      timezone: string | null;
    }
  | { name: 'digest off' }
  /**
   * Forgotten-machine alerts. `scope` null: show the settings; `self`: the person's own threshold;
   * `team`: the workspace default (administrators). `thresholdMs` null: off.
   */
  | { name: 'alerts'; scope: 'self' | 'team' | null; thresholdMs: number | null }
  /** Workflow Builder steps acting with the person's key. `enabled` null: say whether they are on. */
  | { name: 'steps'; enabled: boolean | null };

export type CommandName = Command['name'];

export interface CommandSpec {
  readonly name: CommandName;
  readonly usage: string;
  readonly summary: string;
}

const ps = SLASH_COMMAND;

// A record keyed by every CommandName: the compiler rejects a command without an entry (and an entry
// without a command). The order here is the order of `/ps help`.
const GRAMMAR = {
  help: { usage: `${ps} help [command]`, summary: 'List the commands, or explain one.' },
  login: { usage: `${ps} login`, summary: 'Link your Paperspace API key in a private form.' },
  logout: { usage: `${ps} logout`, summary: 'Forget your API key.' },
  whoami: { usage: `${ps} whoami`, summary: 'Show which Paperspace account your key belongs to.' },
  list: {
    usage: `${ps} list [key=value ...]`,
    summary:
      'List your machines, filtered by machine fields (state=ready, region=CA1, ...) or by owner (owner=@sam).',
  },
  show: {
    usage: `${ps} show <machine>`,
    summary: 'Show a machine card. <machine> is an id or a unique name.',
  },
  start: {
    usage: `${ps} start <machine> [--no-wait]`,
    summary: 'Start a machine and post here when it is ready (--no-wait: do not watch it).',
  },
  stop: {
    usage: `${ps} stop <machine> [--no-wait]`,
    summary: 'Stop a machine and post here when it is off (--no-wait: do not watch it).',
  },
  restart: {
    usage: `${ps} restart <machine> [--no-wait]`,
    summary: 'Restart a machine and post here when it is ready (--no-wait: do not watch it).',
  },
  wait: {
    usage: `${ps} wait <machine> <off|serviceready|ready> [--timeout 30m]`,
    summary: 'Post here when a machine reaches a state (timeout 90s, 10m, 2h or 1h30m; at most 24h).',
  },
  create: {
    usage: `${ps} create [key=value ...]`,
    summary:
      'Create a machine: a form, or inline parameters (machineName=... region=CA1 machineType=C4 ...). ' +
      `Machine types: with API v1, those the template offers (${ps} templates lists them).`,
  },
  update: {
    usage: `${ps} update <machine> key=value ...`,
    summary: 'Change machine settings (machineName, shutdownTimeoutInHours, dynamicPublicIp, ...).',
  },
  destroy: {
    usage: `${ps} destroy <machine> [--release-ip]`,
    summary: 'Destroy a machine after you confirm (--release-ip: also release its public IP).',
  },
  access: {
    usage: `${ps} access <machine> grant|revoke <@user|userId>`,
    summary: 'Give a person access to a machine, or take it away.',
  },
  usage: {
    usage: `${ps} usage <machine> [YYYY-MM]`,
    summary: 'Show hours used and cost of a machine for a month (default: this month).',
  },
  availability: {
    usage: `${ps} availability [region] [machineType]`,
    summary:
      'Show where machine types can be created now: dedicated GPU types on the legacy API, every type your templates offer on API v1.',
  },
  scripts: { usage: `${ps} scripts`, summary: 'List your startup scripts.' },
  'script show': { usage: `${ps} script show <id>`, summary: 'Show a startup script and its machines.' },
  'script text': { usage: `${ps} script text <id>`, summary: 'Show the text of a startup script.' },
  'script delete': {
    usage: `${ps} script delete <id>`,
    summary: 'Delete a startup script (it is removed from every machine).',
  },
  'script create': { usage: `${ps} script create`, summary: 'Upload a startup script in a form.' },
  templates: {
    usage: `${ps} templates [key=value ...]`,
    summary: 'List templates (filters: os, region, ...).',
  },
  users: { usage: `${ps} users [key=value ...]`, summary: 'List the users of your team.' },
  networks: { usage: `${ps} networks [key=value ...]`, summary: 'List your private networks.' },
  drives: { usage: `${ps} drives`, summary: 'List shared drives (team administrators).' },
  'drive create': {
    usage: `${ps} drive create`,
    summary: 'Create a shared drive in a form (team administrators).',
  },
  'drive delete': {
    usage: `${ps} drive delete <id>`,
    summary: 'Delete a shared drive (team administrators).',
  },
  share: {
    usage: `${ps} share <machine> [<machine> ...] [<@user> ...]`,
    summary: 'Share machines in this channel for 4 hours; on Paperspace v1, with the teammates you mention.',
  },
  shares: { usage: `${ps} shares`, summary: 'List the shares you made that have not expired.' },
  remind: {
    usage: `${ps} remind <time> [weekdays|daily|<cron days>]`,
    summary:
      'Show you your running machines at a time of day in your time zone (19:00, 7pm, 7:30pm): weekdays (default), daily, or cron day fields ("* * 1-5", "mon,wed").',
  },
  reminders: { usage: `${ps} reminders`, summary: 'List your reminders.' },
  'remind off': {
    usage: `${ps} remind off [id]`,
    summary: 'Turn off one reminder, or all of them and any snoozes.',
  },
  approvals: {
    usage: `${ps} approvals <#channel|off> [--expires 24h]`,
    summary:
      "Administrators: post your team's create requests (and those waiting for an owner who has not linked a key) in a channel (off: create requests to each administrator's DM), and how long requests stay open.",
  },
  requests: { usage: `${ps} requests`, summary: 'List your open requests and those waiting for you.' },
  spend: {
    usage: `${ps} spend [YYYY-MM] [page=N]`,
    summary:
      "Show this month's cost so far (or a past month's) per machine: yours, or for a team administrator the whole team's by person.",
  },
  digest: {
    usage: `${ps} digest <#channel> <daily|weekly> <HH:MM> [time zone]`,
    summary:
      "Post the team's running machines, their owners and the month's spend per person in a channel, daily or every Monday, in your time zone or the one given (Europe/Berlin) (team administrators).",
  },
  'digest off': { usage: `${ps} digest off`, summary: "Stop your team's digest (team administrators)." },
  alerts: {
    usage: `${ps} alerts [<6h>|off] | alerts default <6h|off>`,
    summary:
      'Be messaged when one of your machines runs longer than this (8h unless set); default sets it for the workspace (administrators).',
  },
  steps: {
    usage: `${ps} steps [on|off]`,
    summary:
      'Let Workflow Builder steps that name you act with your Paperspace key (off unless you turn them on), or say whether they may.',
  },
} as const satisfies Record<CommandName, { usage: string; summary: string }>;

/** Every command with its usage line and summary, in help order. */
export const COMMANDS: readonly CommandSpec[] = Object.entries(GRAMMAR).map(([name, spec]) => ({
  name: name as CommandName,
  usage: spec.usage,
  summary: spec.summary,
}));

export function usageOf(name: CommandName): string {
  return GRAMMAR[name].usage;
}

/** The usage shown when the command itself is unknown: where to find the list. */
export const GENERAL_USAGE = GRAMMAR.help.usage;

/** The first words of the commands: what may follow `/ps` (`script` stands for its subcommands). */
export const COMMAND_WORDS: readonly string[] = [...new Set(COMMANDS.map((spec) => firstWord(spec.name)))];

function firstWord(name: string): string {
  return name.split(' ')[0] ?? name;
}

/**
 * The commands a help topic covers: one command (`start`, `script show`) or a word shared by several
 * (`script`, `drive`, `remind`). Null when the topic names no command.
 */
export function commandsForTopic(topic: string): readonly CommandSpec[] | null {
  const normalized = topic.trim().toLowerCase().split(/\s+/).join(' ');
  const exact = COMMANDS.filter((spec) => spec.name === normalized);
  if (exact.length > 0) return exact;
  const group = COMMANDS.filter((spec) => firstWord(spec.name) === normalized);
  return group.length > 0 ? group : null;
}

/** Usage lines of the commands that start with `word`, one per line (for errors about a group). */
export function groupUsage(word: string): string {
  return (commandsForTopic(word) ?? []).map((spec) => spec.usage).join('\n');
}

/**
 * Filters each list command accepts, as the contract names them (paperspace-api-contract.md, "List
 * machines" and the Templates, Users and Networks sections), plus `machineType` for machines. getMachines
 * takes `machineId`, never `id`; `limit` and `skip` are pagination, which the bot drives itself.
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
export const COMMON_FILTER_KEYS: Record<FilteredListName, readonly string[]> = {
  list: ['state', 'region', 'machineType', 'name', 'owner'],
  templates: ['os', 'region', 'label', 'name'],
  users: ['email', 'firstname', 'lastname'],
  networks: ['region', 'name'],
};
