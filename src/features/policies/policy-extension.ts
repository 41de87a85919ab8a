// An extension of a machine's stop: 4 h past the stop the click was about (or past now, when that
// stop has already come). Kept per machine and rule, so it outlives a restart of the machine.
import type { PolicyTeam } from '../../store/team-policies.js';
import type { PolicyRef } from './blocks/policy-ref.js';
import { EXTENSION_MS } from './lease.js';
import type { PoliciesDeps } from './policies-deps.js';

/** Extends the stop and audits it; answers the moment the machine now runs until. */
export async function extendStop(
  deps: Pick<PoliciesDeps, 'store' | 'audit' | 'now'>,
  team: PolicyTeam,
  ref: PolicyRef,
  by: string,
  requester?: string,
): Promise<number> {
  const now = deps.now();
  const until = Math.max(ref.stopAt, now) + EXTENSION_MS;
  const note = `${ref.kind} extended to ${new Date(until).toISOString()}${requester ? ` for ${requester}` : ''}`;
  await deps.audit.run(
    { user: { teamId: team.teamId, userId: by }, action: 'policy.extend', resourceId: ref.id, note },
    () => deps.store.policies.extend(team.teamId, ref.id, ref.kind, until, by, now),
  );
  return until;
}
