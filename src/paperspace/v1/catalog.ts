// The v1 lists the create form and /ps list read: templates (OS templates and the team's custom
// ones), the team's users and its private networks. v1 filters few fields, so every contract filter
// is applied here, on whole lists followed to their last cursor.
import type { z } from 'zod';
import { PaperspaceNotFoundError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import { segment } from '../path-ids.js';
import {
  networkListFiltersSchema,
  templateListFiltersSchema,
  userListFiltersSchema,
} from '../request-params/list-filters.js';
import { parseRequest } from '../request-params/parse-request.js';
import type { ListResource, NetworksResource, TemplatesResource, UsersResource } from '../resources.js';
import type { V1Context } from './context.js';
import { networkFromV1, templateFromV1, userFromV1 } from './mapping.js';
import { v1All } from './pages.js';
import { v1NetworkSchema, v1TeamMemberSchema, v1TemplateSchema } from './wire.js';

/** Keeps the items whose fields equal every given filter, compared as text like a query string. */
function filtered<Item>(items: Item[], filters: Record<string, unknown>): Item[] {
  const wanted = Object.entries(filters).filter(([, value]) => value !== undefined);
  return items.filter((item) =>
    wanted.every(([field, value]) => String((item as Record<string, unknown>)[field]) === String(value)),
  );
}

function listOf<Filters, Item>(
  filtersSchema: z.ZodType<Record<string, unknown>, Filters>,
  operation: string,
  action: string,
  fetch: (options?: RequestOptions) => Promise<Item[]>,
): ListResource<Filters, Item> {
  return {
    async list(filters, options) {
      const wanted = parseRequest(filtersSchema, filters ?? {}, operation, action);
      return filtered(await fetch(options), wanted);
    },
  };
}

export function createV1TemplatesResource(context: V1Context): TemplatesResource {
  return listOf(templateListFiltersSchema, 'templates.list', 'list templates', async (options) => {
    const list = (path: string) =>
      v1All(
        context,
        { ...options, operation: 'templates.list', action: 'list templates', path, item: v1TemplateSchema },
        templateFromV1,
      );
    const [os, custom] = await Promise.all([list('/os-templates'), list('/custom-templates')]);
    return [...os, ...custom];
  });
}

export function createV1UsersResource(context: V1Context): UsersResource {
  return listOf(userListFiltersSchema, 'users.list', 'list users', async (options) => {
    const { team } = await context.session(options);
    const members = (address: string) =>
      v1All(
        context,
        {
          ...options,
          operation: 'users.list',
          action: 'list users',
          path: `/teams/${segment(address)}/users`,
          item: v1TeamMemberSchema,
        },
        (member) => userFromV1(member, team.id),
      );
    // The typings name the path parameter the team's id; Paperspace's own CLI sends the namespace.
    // The id is asked first; a 404 for it is asked again by namespace, so either answer works.
    try {
      return await members(team.id);
    } catch (error) {
      if (!(error instanceof PaperspaceNotFoundError) || !team.namespace || team.namespace === team.id) {
        throw error;
      }
      return members(team.namespace);
    }
  });
}

export function createV1NetworksResource(context: V1Context): NetworksResource {
  return listOf(networkListFiltersSchema, 'networks.list', 'list networks', async (options) => {
    const teamId = (await context.session(options)).team.id;
    return v1All(
      context,
      {
        ...options,
        operation: 'networks.list',
        action: 'list networks',
        path: '/private-networks',
        item: v1NetworkSchema,
      },
      (network) => networkFromV1(network, teamId),
    );
  });
}
