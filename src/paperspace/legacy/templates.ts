// Templates: the images new machines are created from.
import { templateListFiltersSchema } from '../request-params/list-filters.js';
import type { TemplatesResource } from '../resources.js';
import { templateListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';
import { createListResource } from './list-resource.js';

export function createTemplatesResource(context: ResourceContext): TemplatesResource {
  return createListResource(context, {
    operation: 'templates.list',
    action: 'list templates',
    path: '/templates/getTemplates',
    filtersSchema: templateListFiltersSchema,
    schema: templateListSchema,
  });
}
