// Resource delegations: a time-boxed access token for chosen machines (for example to stream one).
// The token stops working 4 hours after creation; until then it reads the delegated machines only.
import { z } from 'zod';
import { isDelegationActive, requireUser, visibleMachine } from './auth.js';
import { iso } from './machine-view.js';
import type { DelegationRecord } from './records.js';
import { json, parseBody, type Reply, type RequestContext, type Route } from './router.js';

const createSchema = z.strictObject({
  machine: z.strictObject({ ids: z.array(z.string().min(1)).optional() }).optional(),
});

export function delegationView(delegation: DelegationRecord, now: number) {
  return {
    id: delegation.id,
    delegation: { machine: { ids: [...delegation.machineIds] } },
    isEnabled: isDelegationActive(delegation, now),
    accessTokenId: delegation.accessTokenId,
    dtCreated: iso(delegation.dtCreated),
  };
}

function createDelegation({ core, caller, body }: RequestContext): Reply {
  const user = requireUser(caller);
  const request = parseBody(createSchema, body);
  const machineIds = [...new Set(request.machine?.ids ?? [])];
  for (const machineId of machineIds) visibleMachine(core, caller, machineId);
  const delegation: DelegationRecord = {
    id: core.ids.nextDelegationId(),
    machineIds,
    accessTokenId: core.ids.secret('dlg_'),
    creatorId: user.id,
    dtCreated: core.now(),
  };
  core.world.delegations.set(delegation.id, delegation);
  return json(delegationView(delegation, core.now()));
}

export const delegationRoutes: readonly Route[] = [
  { method: 'POST', path: '/resourceDelegations/create', access: 'user', handle: createDelegation },
];
