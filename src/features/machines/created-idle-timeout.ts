// A machine created through the bot on a team with an idle rule (`/ps policy idle`) gets Paperspace's
// own shutdown timeout at once, with the key of the person who created it, so it stops when nobody is
// logged in even while the bot is down. The creator hears either way; the update is audited.
import { describeError } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import type { FeatureDeps } from '../feature-deps.js';
import type { Actor } from './machine-operations.js';

/** What the creator is told about the timeout, or undefined when the team has no idle rule. */
export async function setTeamIdleTimeout(
  deps: FeatureDeps<'policies', 'audit' | 'vault'>,
  { user, client }: Actor,
  machine: Pick<Machine, 'id' | 'name'>,
): Promise<string | undefined> {
  const paperspaceTeamId = (await deps.vault.account(user))?.teamId;
  if (!paperspaceTeamId) return undefined;
  const { idle } = await deps.store.policies.rules({ teamId: user.teamId, paperspaceTeamId });
  if (idle === undefined) return undefined;
  const name = `*${escapeMrkdwn(machine.name)}*`;
  try {
    await deps.audit.run(
      {
        user,
        action: 'policy.idle',
        resourceId: machine.id,
        note: `${idle.hours} h idle timeout set by ${idle.setBy}, on create with the creator's key`,
      },
      () => client.machines.update(machine.id, { shutdownTimeoutInHours: idle.hours }),
    );
    return `⏲ Your team's idle rule is set on ${name}: Paperspace shuts it down after ${idle.hours} h with nobody logged in.`;
  } catch (error) {
    deps.logger.warn(
      { machineId: machine.id, error: describeError(error) },
      'the idle timeout on create failed',
    );
    return `⚠️ ${name} was created, but Paperspace refused to set your team's ${idle.hours} h idle timeout on it with your key: its owner can set it with \`/ps update ${escapeMrkdwn(machine.name)} shutdownTimeoutInHours=${idle.hours}\`.`;
  }
}
