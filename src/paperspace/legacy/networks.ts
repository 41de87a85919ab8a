// Private networks machines and shared drives are created on.
import { networkListFiltersSchema } from '../request-params/list-filters.js';
import type { NetworksResource } from '../resources.js';
import { networkListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';
import { createListResource } from './list-resource.js';

export function createNetworksResource(context: ResourceContext): NetworksResource {
  return createListResource(context, {
    operation: 'networks.list',
    action: 'list networks',
    path: '/networks/getNetworks',
    filtersSchema: networkListFiltersSchema,
    schema: networkListSchema,
  });
}
