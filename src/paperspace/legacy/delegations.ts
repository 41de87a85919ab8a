// Resource delegations: a 4-hour access token for chosen machines, used to share them.
import type { RequestOptions } from '../http.js';
import {
  type CreateDelegationParams,
  createDelegationParamsSchema,
  parseRequest,
} from '../request-params.js';
import { type ResourceDelegation, resourceDelegationSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';

export interface DelegationsResource {
  create(params: CreateDelegationParams, options?: RequestOptions): Promise<ResourceDelegation>;
}

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
