// The leases of a team's running machines, read from the store alone (no Paperspace call): the runs the
// cost guard dated, the extensions and the exemptions, beside the team's rules the caller read. Shared
// by the enforcement (policy-guard.ts) and the cards that show the lease (card-leases.ts).
import { isStoppable } from '../../domain/machine-states.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { Store } from '../../store/store.js';
import type { PolicyTeam, TeamPolicies } from '../../store/team-policies.js';
import { type Lease, leaseOf } from './lease.js';

export interface LeasedMachine<M extends Pick<Machine, 'id' | 'state'>> {
  machine: M;
  lease: Lease;
}

/** Each running machine of `machines` that the team's `rules` stop, with its lease. */
export async function runningLeases<M extends Pick<Machine, 'id' | 'state'>>(
  store: Pick<Store, 'policies' | 'costAlerts'>,
  team: PolicyTeam,
  rules: TeamPolicies,
  machines: readonly M[],
  now: number,
): Promise<LeasedMachine<M>[]> {
  if (rules.max_run === undefined && rules.off_hours === undefined) return [];
  const running = machines.filter((machine) => isStoppable(machine.state));
  if (running.length === 0) return [];
  const ids = running.map((machine) => machine.id);
  const [runs, extensions, exemptions] = await Promise.all([
    store.costAlerts.runs(ids),
    store.policies.extensions(team.teamId, ids),
    store.policies.exemptions(team, now),
  ]);
  const since = new Map(runs.map((run) => [run.machineId, run.runningSince]));
  const exempt = new Set(exemptions.map((exemption) => exemption.machineId));
  const leased: LeasedMachine<M>[] = [];
  for (const machine of running) {
    // The cost guard dates a run at its check (the machine's events): until then it is not known.
    const runningSince = since.get(machine.id);
    if (runningSince === undefined) continue;
    const lease = leaseOf({
      policies: rules,
      machineId: machine.id,
      runningSince,
      extensions,
      exempt: exempt.has(machine.id),
    });
    if (lease !== undefined) leased.push({ machine, lease });
  }
  return leased;
}
