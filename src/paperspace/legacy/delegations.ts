// Resource delegations (the contract): a 4-hour access token for chosen machines, used to share them.
import { createDelegationParamsSchema } from '../request-params/delegation-params.js';
import { parseRequest } from '../request-params/parse-request.js';
import type { DelegationsResource } from '../resources.js';
import { resourceDelegationSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';

export function createDelegationsResource({ core, restUrl }: ResourceContext): DelegationsResource {
  return {
    async create(params, options) {
      const action = 'share machines through a resource delegation';
      const { machineIds } = parseRequest(createDelegationParamsSchema, params, 'delegations.create', action);
      const response = await core.send({
        ...options,
        operation: 'delegations.create',
        action,
        method: 'POST',
        url: restUrl('/resourceDelegations/create'),
        body: { machine: { ids: machineIds } },
        credential: 'apiKey',
        schema: resourceDelegationSchema,
        idempotent: false,
      });
      return response.data;
    },
  };
}
