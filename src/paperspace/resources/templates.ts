// Templates: the images new machines are created from.
import type { RequestOptions } from '../http.js';
import { parseRequest, type TemplateListFilters, templateListFiltersSchema } from '../requests.js';
import { type Template, templateListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';

export interface TemplatesResource {
  list(filters?: TemplateListFilters, options?: RequestOptions): Promise<Template[]>;
}

export function createTemplatesResource({ core, restUrl }: ResourceContext): TemplatesResource {
  return {
    async list(filters = {}, options) {
      const query = parseRequest(templateListFiltersSchema, filters, 'templates.list', 'list templates');
      const response = await core.send({
        ...options,
        operation: 'templates.list',
        action: 'list templates',
        method: 'GET',
        url: restUrl('/templates/getTemplates'),
        query,
        credential: 'apiKey',
        schema: templateListSchema,
        idempotent: true,
      });
      return response.data;
    },
  };
}
