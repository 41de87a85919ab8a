// Private networks machines and shared drives are created on.
import type { RequestOptions } from '../http.js';
import { type NetworkListFilters, networkListFiltersSchema, parseRequest } from '../requests.js';
import { type Network, networkListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';

export interface NetworksResource {
  list(filters?: NetworkListFilters, options?: RequestOptions): Promise<Network[]>;
}

export function createNetworksResource({ core, restUrl }: ResourceContext): NetworksResource {
  return {
    async list(filters = {}, options) {
      const query = parseRequest(networkListFiltersSchema, filters, 'networks.list', 'list networks');
      const response = await core.send({
        ...options,
        operation: 'networks.list',
        action: 'list networks',
        method: 'GET',
        url: restUrl('/networks/getNetworks'),
        query,
        credential: 'apiKey',
        schema: networkListSchema,
        idempotent: true,
      });
      return response.data;
    },
  };
}
