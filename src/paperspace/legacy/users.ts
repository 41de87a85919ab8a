// Users of the caller's account or team.
import { userListFiltersSchema } from '../request-params/list-filters.js';
import type { UsersResource } from '../resources.js';
import { userListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';
import { createListResource } from './list-resource.js';

export function createUsersResource(context: ResourceContext): UsersResource {
  return createListResource(context, {
    operation: 'users.list',
    action: 'list users',
    path: '/users/getUsers',
    filtersSchema: userListFiltersSchema,
    schema: userListSchema,
  });
}
