// What a person linking a key on a team with policies is told plainly: the team's run limit or
// off-hours may stop their machines, and its idle rule may set Paperspace's shutdown timeout on them,
// with this very key (every warning says it again).
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import { describeOffHours, formatLimit } from './blocks/policy-words.js';

export async function policiesLinkingNotice(
  store: Pick<Store, 'policies'>,
  user: SlackUser,
  paperspaceTeamId: string | null | undefined,
): Promise<string | undefined> {
  if (!paperspaceTeamId) return undefined;
  const rules = await store.policies.rules({ teamId: user.teamId, paperspaceTeamId });
  const named = [
    rules.max_run && `a ${formatLimit(rules.max_run.ms)} run limit`,
    rules.off_hours && `off-hours ${describeOffHours(rules.off_hours)}`,
  ].filter((rule): rule is string => typeof rule === 'string');
  const idle =
    rules.idle &&
    `the team's ${rules.idle.hours} h idle timeout may be set on your machines with this key (Paperspace then shuts down a machine nobody is logged into)`;
  if (named.length === 0 && idle === undefined) return undefined;
  const stops =
    named.length === 0
      ? undefined
      : `your team's policies (${named.join(' and ')}) may stop your machines with this key: ` +
        'you are warned 30 minutes before, with Keep running';
  const said = [stops, idle].filter((part): part is string => part !== undefined).join('; ');
  return `⚠️ ${said.charAt(0).toUpperCase()}${said.slice(1)}. \`/ps policy\` shows them.`;
}
