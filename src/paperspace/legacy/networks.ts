// Private networks machines and shared drives are created on.
import { type NetworkListFilters, networkListFiltersSchema } from '../request-params.js';
import { type Network, networkListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';
import { createListResource, type ListResource } from './list-resource.js';

export type NetworksResource = ListResource<NetworkListFilters, Network>;

export function createNetworksResource(context: ResourceContext): NetworksResource {
  return createListResource(context, {
    operation: 'networks.list',
    action: 'list networks',
    path: '/networks/getNetworks',
    filtersSchema: networkListFiltersSchema,
    schema: networkListSchema,
  });
}
