// Templates: the images new machines are created from.
import { type TemplateListFilters, templateListFiltersSchema } from '../request-params.js';
import { type Template, templateListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';
import { createListResource, type ListResource } from './list-resource.js';

export type TemplatesResource = ListResource<TemplateListFilters, Template>;

export function createTemplatesResource(context: ResourceContext): TemplatesResource {
  return createListResource(context, {
    operation: 'templates.list',
    action: 'list templates',
    path: '/templates/getTemplates',
    filtersSchema: templateListFiltersSchema,
    schema: templateListSchema,
  });
}
