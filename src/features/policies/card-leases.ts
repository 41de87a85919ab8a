// The lease a machine card and App Home show of each running team machine: when the team's rules stop
// it, with an Extend button that Keep running answers. Read from the store alone, never Paperspace: the
// team's rules once per draw, and only when one is set the runs, extensions and exemptions beside them.
import { isStoppable } from '../../domain/machine-states.js';
import type { Machine } from '../../paperspace/schemas.js';
import { slackDate } from '../../slack/block-kit/text.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { CardLease } from '../machines/blocks/machine-card.js';
import { encodePolicyRef } from './blocks/policy-ref.js';
import { formatLimit } from './blocks/policy-words.js';
import type { Lease } from './lease.js';
import { runningLeases } from './running-leases.js';

export interface CardLeaseDeps {
  store: Pick<Store, 'policies' | 'costAlerts'>;
  now: () => number;
}

/** Each running team machine's lease by machine id; empty off a team or with no rule set. */
export async function cardLeases(
  deps: CardLeaseDeps,
  user: SlackUser,
  paperspaceTeamId: string | null,
  machines: readonly Machine[],
): Promise<ReadonlyMap<string, CardLease>> {
  const leases = new Map<string, CardLease>();
  if (!paperspaceTeamId || !machines.some((machine) => isStoppable(machine.state))) return leases;
  const team = { teamId: user.teamId, paperspaceTeamId };
  const rules = await deps.store.policies.rules(team);
  for (const { machine, lease } of await runningLeases(deps.store, team, rules, machines, deps.now())) {
    const ref = { id: machine.id, name: machine.name, kind: lease.kind, stopAt: lease.stopAt };
    leases.set(machine.id, { text: leaseText(lease), extendValue: encodePolicyRef(ref) });
  }
  return leases;
}

/** "⏱ Stops today at 20:00 (team off-hours)", "⏱ 12 h run limit: stops today at 21:40". */
function leaseText(lease: Lease): string {
  const at = slackDate(lease.stopAt, '{date_short_pretty} at {time}');
  return lease.kind === 'off_hours'
    ? `⏱ Stops ${at} (team off-hours)`
    : `⏱ ${formatLimit(lease.limitMs ?? 0)} run limit: stops ${at}`;
}
