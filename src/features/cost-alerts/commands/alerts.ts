// /ps alerts [<6h>|off]: how long one of your machines may run before you are messaged about it.
// /ps alerts default <6h|off>: the workspace's default, for the Slack workspace's admins and owners
// (slack/workspace-admin.ts): it applies to everyone here, whatever their Paperspace account. Without
// arguments it shows what applies and where it comes from.

import { UserFacingError } from '../../../errors/user-facing-error.js';
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandContext, CommandOf } from '../../../slack/command-context.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
import { requireWorkspaceAdmin } from '../../../slack/workspace-admin.js';
import {
  DEFAULT_THRESHOLD_MS,
  type EffectiveThreshold,
  formatThreshold,
  thresholdOf,
} from '../thresholds.js';

const reply = (text: string) => ({ blocks: [{ type: 'section' as const, text: mrkdwn(text) }], text });

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

export async function alertsCommand(command: CommandOf<'alerts'>, context: CommandContext): Promise<void> {
  const { deps, user } = context;
  const hint = `\`${SLASH_COMMAND} alerts 6h\` sets your own, \`${SLASH_COMMAND} alerts off\` turns them off.`;
  if (command.scope === null) {
    return context.replyPrivately(reply(`${describe(await thresholdOf(deps.store, user))} ${hint}`));
  }
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
