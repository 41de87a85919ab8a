// /ps alerts [<6h>|off]: how long one of your machines may run before you are messaged about it.
// /ps alerts default <6h|off>: the workspace's default, for administrators of a Paperspace team (v1's
// /auth/session says who is one). Without arguments it shows what applies and where it comes from.
import { mrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandContext, CommandOf } from '../../../slack/command-context.js';
import { SLASH_COMMAND } from '../../../slack/ids.js';
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
  const client = await context.userClient();
  if (client === undefined) return;
  const identity = await client.account.whoAmI();
  if (identity === undefined) {
    return context.replyPrivately(
      reply(
        "⛔ I cannot tell whether you administer your Paperspace team: the legacy API does not say. The workspace default can be set by an administrator on Paperspace's v1 API.",
      ),
    );
  }
  if (!identity.isAdmin) {
    return context.replyPrivately(
      reply(
        `⛔ Only an administrator of your Paperspace team can set the workspace default. You can set your own: ${hint}`,
      ),
    );
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
