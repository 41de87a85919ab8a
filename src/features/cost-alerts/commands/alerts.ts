// /ps alerts [<6h>|off]: how long one of your machines may run before you are messaged about it.
// /ps alerts default <6h|off>: the workspace's default, for the Slack workspace's admins and owners
// (slack/workspace-admin.ts): it applies to everyone here, whatever their Paperspace account. Without
// arguments it shows what applies and where it comes from, and the machines you muted with Not this
// machine; /ps alerts unmute <machine> alerts you about one again (by the name it had, or its id).

import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { parseDuration } from '../../../slack/command-language/duration.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { requireWorkspaceAdmin, WORKSPACE_ADMINS_ONLY } from '../../../slack/workspace-admin.js';
import type { CostAlertsDeps } from '../cost-alerts-deps.js';
import {
  DEFAULT_THRESHOLD_MS,
  type EffectiveThreshold,
  formatThreshold,
  thresholdOf,
} from '../thresholds.js';

/** A forgotten machine is one left running for hours; a week is past forgetting. */
const MAX_ALERT_THRESHOLD_MS = 7 * 24 * 3_600_000;

/**
 * `scope` null: show the settings; `self`: the person's own threshold; `team`: the workspace default
 * (administrators). `thresholdMs` null: off.
 */
type AlertsParams = {
  scope: 'self' | 'team' | 'unmute' | null;
  thresholdMs: number | null;
  machine: string | null;
};

export const alertsOperation = defineOperation({
  name: 'alerts',
  usage: `${SLASH_COMMAND} alerts [<6h>|off] | alerts default <6h|off> | alerts unmute <machine>`,
  summary:
    'Be messaged when one of your machines runs longer than this (8h unless set); default sets it for the workspace (administrators).',
  help: {
    parameters: [
      '`6h`, `90m`, `off`: your own limit (nothing: show what applies).',
      '`default 6h` or `default off`: the workspace default.',
      '`unmute gpu-1`: alert you about a machine you muted with Not this machine again.',
    ],
    examples: [
      `${SLASH_COMMAND} alerts`,
      `${SLASH_COMMAND} alerts 4h`,
      `${SLASH_COMMAND} alerts 1m`,
      `${SLASH_COMMAND} alerts default 8h`,
      `${SLASH_COMMAND} alerts unmute gpu-1`,
    ],
    effect: `When one of your machines has run that long, you get a message with Stop, Keep running and Not this machine (its owner and administrators only); several due together come as one message with Stop all. Without arguments it lists the machines you muted. The default: ${WORKSPACE_ADMINS_ONLY}`,
  },
  kind: 'change',
  params: z.object({
    scope: z
      .enum(['self', 'team', 'unmute'])
      .nullable()
      .describe(
        "Whose threshold: the person's own, the workspace default; unmute: alert about `machine` again; null to show what applies.",
      ),
    thresholdMs: z
      .number()
      .int()
      .positive()
      .max(MAX_ALERT_THRESHOLD_MS)
      .nullable()
      .describe('How long a machine may run before the alert, in milliseconds; null for off.'),
    machine: z
      .string()
      .min(1)
      .max(200)
      .nullable()
      .describe('With unmute: the muted machine, by its name or id; null otherwise.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('alerts', args);
    if (!split.ok) return split;
    const positionals = [...split.args.positionals];
    if (positionals.length === 0) return accept({ scope: null, thresholdMs: null, machine: null });
    if (positionals[0]?.text.toLowerCase() === 'unmute') {
      const machine = positionals
        .slice(1)
        .map((word) => word.text)
        .join(' ');
      if (machine === '')
        return fail('Missing the machine to unmute: give its name, as `/ps alerts` lists it.');
      return accept({ scope: 'unmute', thresholdMs: null, machine });
    }
    let scope: 'self' | 'team' = 'self';
    if (positionals[0]?.text.toLowerCase() === 'default') {
      scope = 'team';
      positionals.shift();
      if (positionals.length === 0) return fail('Missing the default: give a duration such as 8h, or off.');
    }
    const extra = tooMany('alerts', positionals, 1, 'one duration or off');
    if (extra !== null) return extra;
    const typed = positionals[0]?.text ?? '';
    if (typed.toLowerCase() === 'off') return accept({ scope, thresholdMs: null, machine: null });
    const duration = parseDuration(typed, MAX_ALERT_THRESHOLD_MS);
    if (!duration.ok) return fail(`Invalid threshold ${echo(typed)}: ${duration.error}.`);
    return accept({ scope, thresholdMs: duration.ms, machine: null });
  },
  run: setAlerts,
});

const reply = plainMessage;

function describe(threshold: EffectiveThreshold): string {
  if (threshold.ms === null) {
    return threshold.source === 'team'
      ? 'Forgotten-machine alerts are off for this workspace (its default), and you have not set your own.'
      : 'Your forgotten-machine alerts are off.';
  }
  const after = formatThreshold(threshold.ms);
  const source = {
    own: 'your own setting',
    team: "this workspace's default",
    default: `the bot's default of ${formatThreshold(DEFAULT_THRESHOLD_MS)}`,
  }[threshold.source];
  return `You are messaged when one of your machines has been running for ${after} (${source}).`;
}

async function setAlerts(
  command: AlertsParams,
  context: CommandContext,
  deps: CostAlertsDeps,
): Promise<void> {
  const { user } = context;
  const hint = `\`${SLASH_COMMAND} alerts 6h\` sets your own, \`${SLASH_COMMAND} alerts off\` turns them off.`;
  if (command.scope === null) {
    const muted = await mutedLine(deps, user);
    return context.replyPrivately(reply(`${describe(await thresholdOf(deps.store, user))} ${hint}${muted}`));
  }
  if (command.scope === 'unmute') return unmute(command.machine ?? '', context, deps);
  const setting = command.thresholdMs === null ? 'off' : formatThreshold(command.thresholdMs);
  if (command.scope === 'self') {
    await deps.audit.run({ user, action: 'cost_alert.threshold', note: setting }, () =>
      deps.store.costAlerts.setThreshold(user, command.thresholdMs, deps.now()),
    );
    return context.replyPrivately(reply(`✅ ${describe(await thresholdOf(deps.store, user))}`));
  }
  try {
    await requireWorkspaceAdmin(
      { web: context.web, userId: user.userId, logger: deps.logger },
      "set this workspace's default for forgotten-machine alerts",
    );
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error;
    return context.replyPrivately(reply(`⛔ ${error.message} You can set your own: ${hint}`));
  }
  await deps.audit.run({ user, action: 'cost_alert.team_default', note: setting }, () =>
    deps.store.costAlerts.setTeamDefault(user.teamId, command.thresholdMs, deps.now()),
  );
  const what =
    command.thresholdMs === null ? 'off by default' : `sent after ${setting} of running by default`;
  await context.replyPrivately(
    reply(`✅ Forgotten-machine alerts in this workspace are now ${what}; people's own settings still win.`),
  );
}

/** The machines the person muted, named as they were when muted; empty when none. */
async function mutedLine(deps: CostAlertsDeps, user: CommandContext['user']): Promise<string> {
  const muted = await deps.store.costAlerts.muted(user);
  if (muted.length === 0) return '';
  const names = escapeMrkdwn(muted.map((machine) => machine.name ?? machine.id).join(', '));
  return `\nYou muted (Not this machine): ${names}. \`${SLASH_COMMAND} alerts unmute <machine>\` alerts you about one again.`;
}

async function unmute(typed: string, context: CommandContext, deps: CostAlertsDeps): Promise<void> {
  const { user } = context;
  const wanted = typed.toLocaleLowerCase();
  const machine = (await deps.store.costAlerts.muted(user)).find(
    (muted) => muted.id === typed || muted.name?.toLocaleLowerCase() === wanted,
  );
  if (machine === undefined) {
    return context.replyPrivately(
      reply(
        `You have not muted ${escapeMrkdwn(typed)}: \`${SLASH_COMMAND} alerts\` lists the machines you muted.`,
      ),
    );
  }
  const name = escapeMrkdwn(machine.name ?? machine.id);
  await deps.audit.run({ user, action: 'cost_alert.unmute', resourceId: machine.id }, () =>
    deps.store.costAlerts.unmute(user, machine.id),
  );
  await context.replyPrivately(
    reply(`🔔 You will be alerted about ${name} again when it runs past your threshold.`),
  );
}
