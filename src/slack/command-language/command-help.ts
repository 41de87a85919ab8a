// What `/ps help` says: the short help grouped by what a person wants to do, and for each command its
// parameters, examples and what happens. The usage lines come from the grammar (command-grammar.ts),
// so the help and the parser's errors show the same usage; the record below is keyed by every command
// name, so a new command without its help is a compile error.
import { SLASH_COMMAND } from '../ids.js';
import type { CommandName } from './command-grammar.js';

const ps = SLASH_COMMAND;

export interface HelpGroup {
  title: string;
  /** One line each: a command or two, and what they are for. */
  lines: readonly string[];
}

/** The short help: every command once, grouped by what people come to do. */
export const HELP_GROUPS: readonly HelpGroup[] = [
  {
    title: 'Machines',
    lines: [
      `\`${ps} list\` your machines (\`state=ready\`, \`region=CA1\`) · \`${ps} show <machine>\` its card`,
      `\`${ps} start|stop|restart <machine>\` and hear here when it is done`,
      `\`${ps} create\` a machine (a form) · \`${ps} update\`, \`${ps} destroy\`, \`${ps} access\` one you have`,
    ],
  },
  {
    title: 'Waiting and reminders',
    lines: [
      `\`${ps} wait <machine> ready\` tells you when it gets there`,
      `\`${ps} remind 7pm\` shows you what still runs every weekday · \`${ps} reminders\`, \`${ps} remind off\``,
      `\`${ps} alerts 6h\` messages you when a machine runs that long`,
    ],
  },
  {
    title: 'Sharing',
    lines: [`\`${ps} share <machine> [@person]\` in this channel for 4 hours · \`${ps} shares\` yours`],
  },
  {
    title: 'Cost',
    lines: [
      `\`${ps} spend\` this month so far · \`${ps} usage <machine>\` one machine's hours and cost`,
      `\`${ps} digest #channel daily 09:00\` the team's machines and spend in a channel`,
    ],
  },
  {
    title: 'Team',
    lines: [
      `\`${ps} requests\` waiting for you or by you · \`${ps} approvals #channel\` where they go`,
      `\`${ps} users\`, \`${ps} templates\`, \`${ps} networks\`, \`${ps} availability\` of types by region`,
      `\`${ps} scripts\`, \`${ps} script create\` startup scripts · \`${ps} drives\`, \`${ps} drive create\` shared drives`,
    ],
  },
  {
    title: 'Your account',
    lines: [
      `\`${ps} login\` links your Paperspace key · \`${ps} whoami\` · \`${ps} logout\` · \`${ps} steps on\` for Workflow Builder`,
    ],
  },
];

export interface CommandHelp {
  /** Each parameter and what it means; empty when the command takes none. */
  parameters: readonly string[];
  /** Whole commands as a person would type them. */
  examples: readonly string[];
  /** What happens when it runs: what is answered, where, and what changes. */
  effect: string;
}

const MACHINE = '`<machine>`: its id, or a name that matches one of the machines you may see.';
const NO_WAIT = '`--no-wait`: do not follow it; nothing more is posted.';
const ADMINS_ONLY =
  'Only Slack workspace admins and owners may change it: it applies to the whole workspace.';

export const COMMAND_HELP: Record<CommandName, CommandHelp> = {
  help: {
    parameters: ['`[command]`: a command (`start`, `remind off`) or a group of them (`script`, `drive`).'],
    examples: [`${ps} help`, `${ps} help remind`],
    effect: 'Answers only you: the commands by what they are for, or one command in detail.',
  },
  login: {
    parameters: [],
    examples: [`${ps} login`],
    effect:
      'Opens a private form for your Paperspace API key. It is checked with Paperspace, stored encrypted, and used only for what you do.',
  },
  logout: {
    parameters: [],
    examples: [`${ps} logout`],
    effect: 'Forgets your key: nothing is done with it any more until you link one again.',
  },
  whoami: {
    parameters: [],
    examples: [`${ps} whoami`],
    effect: 'Answers only you with the Paperspace account (and team) your key belongs to.',
  },
  list: {
    parameters: ['`state=ready`, `region=CA1`, `machineType=P4000`, `name=…`: any machine field.'],
    examples: [`${ps} list`, `${ps} list state=ready`],
    effect: 'Answers only you with your machines and their state, with Prev/Next when there are many.',
  },
  show: {
    parameters: [MACHINE],
    examples: [`${ps} show gpu-1`, `${ps} show psabc123`],
    effect: 'Posts the live card of one machine: state, type, region, owner, and its buttons.',
  },
  start: {
    parameters: [MACHINE, NO_WAIT],
    examples: [`${ps} start gpu-1`, `${ps} start gpu-1 --no-wait`],
    effect:
      "Starts it with your key and posts its card here; the card follows it, and the thread says when it is ready. Someone else's machine: you are offered to ask its owner.",
  },
  stop: {
    parameters: [MACHINE, NO_WAIT],
    examples: [`${ps} stop gpu-1`],
    effect:
      "Stops it with your key and posts its card here; the thread says when it is off and billing has stopped. Someone else's machine: you are offered to ask its owner.",
  },
  restart: {
    parameters: [MACHINE, NO_WAIT],
    examples: [`${ps} restart gpu-1`],
    effect: 'Restarts it with your key; the card follows it and the thread says when it is ready again.',
  },
  wait: {
    parameters: [
      MACHINE,
      '`off`, `serviceready` or `ready`: the state to wait for (a headless Linux machine stops at serviceready).',
      '`--timeout 30m`: how long to wait (90s, 10m, 2h, 1h30m; at most 24h; default 30m).',
    ],
    examples: [`${ps} wait gpu-1 ready`, `${ps} wait gpu-1 off --timeout 2h`],
    effect: 'Changes nothing: posts here once the machine gets there, or says it did not in time.',
  },
  create: {
    parameters: [
      'Nothing: a form with every choice (template, type with its GPU and price, region, disk).',
      '`machineName=… region=CA1 machineType=P4000 templateId=… size=50`: inline, the same fields.',
    ],
    examples: [
      `${ps} create`,
      `${ps} create machineName=train-1 region=CA1 machineType=P4000 templateId=tmun4o2g`,
    ],
    effect:
      "Creates the machine with your key and posts its card. A team member's create becomes a request to the team's administrators, sent at once with one click.",
  },
  update: {
    parameters: [
      MACHINE,
      '`machineName=…`, `shutdownTimeoutInHours=…`, `dynamicPublicIp=true`, …: what to change.',
    ],
    examples: [`${ps} update gpu-1 shutdownTimeoutInHours=4`],
    effect: 'Changes those settings with your key and shows the card again.',
  },
  destroy: {
    parameters: [MACHINE, '`--release-ip`: also release its public IP.'],
    examples: [`${ps} destroy old-box`],
    effect:
      'Opens a confirmation where you type its name; only then is it destroyed, which cannot be undone.',
  },
  access: {
    parameters: [MACHINE, '`grant` or `revoke`', '`@person` (or a Paperspace user id): who.'],
    examples: [`${ps} access gpu-1 grant @sam`, `${ps} access gpu-1 revoke @sam`],
    effect: 'Gives that person access to the machine in Paperspace, or takes it away, with your key.',
  },
  usage: {
    parameters: [MACHINE, '`YYYY-MM`: a past billing month (default: this one).'],
    examples: [`${ps} usage gpu-1`, `${ps} usage gpu-1 2024-04`],
    effect: 'Answers only you with its hours and cost for the month: compute and storage, and their sum.',
  },
  availability: {
    parameters: ['`[region]`: CA1, NY2 or AMS1.', '`[machineType]`: e.g. P4000.'],
    examples: [`${ps} availability`, `${ps} availability NY2 P4000`],
    effect: 'Answers only you with where each machine type can be created right now.',
  },
  scripts: {
    parameters: [],
    examples: [`${ps} scripts`],
    effect: 'Answers only you with your startup scripts.',
  },
  'script show': {
    parameters: ['`<id>`: the script id from `/ps scripts`.'],
    examples: [`${ps} script show scr123`],
    effect: 'Shows one startup script and the machines it runs on.',
  },
  'script text': {
    parameters: ['`<id>`: the script id.'],
    examples: [`${ps} script text scr123`],
    effect: 'Shows the text of the script.',
  },
  'script delete': {
    parameters: ['`<id>`: the script id.'],
    examples: [`${ps} script delete scr123`],
    effect: 'Asks you to confirm, then deletes it; it no longer runs on any machine.',
  },
  'script create': {
    parameters: [],
    examples: [`${ps} script create`],
    effect: 'Opens a form for a new startup script: its name, its text, whether it runs once.',
  },
  templates: {
    parameters: ['`key=value`: filters such as `os=…` or `region=CA1`.'],
    examples: [`${ps} templates`, `${ps} templates region=CA1`],
    effect: 'Answers only you with the templates you can create machines from.',
  },
  users: {
    parameters: ['`key=value`: filters such as `email=…`.'],
    examples: [`${ps} users`],
    effect: 'Answers only you with the people of your Paperspace team.',
  },
  networks: {
    parameters: ['`key=value`: filters such as `region=CA1`.'],
    examples: [`${ps} networks`],
    effect: 'Answers only you with your private networks.',
  },
  drives: {
    parameters: [],
    examples: [`${ps} drives`],
    effect: "Answers only you with the team's shared drives (team administrators).",
  },
  'drive create': {
    parameters: [],
    examples: [`${ps} drive create`],
    effect: 'Opens a form for a new shared drive: name, size, region, network (team administrators).',
  },
  'drive delete': {
    parameters: ['`<id>`: the drive id from `/ps drives`.'],
    examples: [`${ps} drive delete sdr123`],
    effect: 'Asks you to confirm, then deletes the drive and its files (team administrators).',
  },
  share: {
    parameters: [`${MACHINE} Several may be named.`, '`@person`: on Paperspace v1, who gets access.'],
    examples: [`${ps} share gpu-1`, `${ps} share gpu-1 @sam`],
    effect:
      'Posts in this channel what you share and until when (4 hours); when it ends the access is taken back and the post says so.',
  },
  shares: {
    parameters: [],
    examples: [`${ps} shares`],
    effect: 'Answers only you with the shares you made that have not ended, each with End share.',
  },
  remind: {
    parameters: [
      '`<time>`: `19:00`, `7pm` or `7:30pm`, in your Slack time zone.',
      '`weekdays` (default), `daily`, or cron day fields (`"* * 1-5"`, `mon,wed`).',
    ],
    examples: [`${ps} remind 7pm`, `${ps} remind 18:30 daily`, `${ps} remind 19:00 mon,wed`],
    effect:
      'At that time, sends you a message with your running machines and Stop / Snooze 1h / Keep running on each.',
  },
  reminders: {
    parameters: [],
    examples: [`${ps} reminders`],
    effect: 'Answers only you with your reminders and when each fires next.',
  },
  'remind off': {
    parameters: ['`[id]`: one reminder from `/ps reminders` (default: all of them, and any snoozes).'],
    examples: [`${ps} remind off`, `${ps} remind off rem123`],
    effect: 'Turns the reminder(s) off; nothing else changes.',
  },
  approvals: {
    parameters: [
      "`#channel`: post the team's requests there; `off`: to each administrator's DM.",
      '`--expires 24h`: how long a request stays open (at most 7 days).',
    ],
    examples: [`${ps} approvals #gpu-requests`, `${ps} approvals off --expires 8h`],
    effect: `Changes where your team's create requests go and how long they wait. ${ADMINS_ONLY}`,
  },
  requests: {
    parameters: [],
    examples: [`${ps} requests`],
    effect: 'Answers only you with your open requests and those waiting for you to approve.',
  },
  spend: {
    parameters: [
      '`YYYY-MM`: a past billing month (default: this one).',
      '`page=N`: the page of people, for a team too large for one message (Next and Previous page too).',
    ],
    examples: [`${ps} spend`, `${ps} spend 2024-04`, `${ps} spend page=2`],
    effect:
      "Answers only you with the month's cost per machine; a team administrator sees the whole team's, by person.",
  },
  digest: {
    parameters: [
      '`#channel`: where it is posted.',
      '`daily` or `weekly` (Mondays).',
      '`HH:MM`: when, in your Slack time zone, or `[time zone]` given (`Europe/Berlin`).',
    ],
    examples: [`${ps} digest #ops daily 09:00`, `${ps} digest #ops weekly 08:30 America/New_York`],
    effect: `Posts the team's running machines (with Stop) and the month's spend per person in that channel, using your key. ${ADMINS_ONLY}`,
  },
  'digest off': {
    parameters: [],
    examples: [`${ps} digest off`],
    effect: `Ends the team's digest. ${ADMINS_ONLY}`,
  },
  alerts: {
    parameters: [
      '`6h`, `90m`, `off`: your own limit (nothing: show what applies).',
      '`default 6h` or `default off`: the workspace default.',
    ],
    examples: [`${ps} alerts`, `${ps} alerts 4h`, `${ps} alerts default 8h`],
    effect: `When one of your machines has run that long, you get a message with Stop, Keep running and Not this machine. The default: ${ADMINS_ONLY}`,
  },
  steps: {
    parameters: ['`on` or `off` (nothing: say whether they are on).'],
    examples: [`${ps} steps on`],
    effect: 'Lets Workflow Builder steps that name you start, stop or wait for machines with your key.',
  },
};
