// Users of the caller's account or team.
import { type UserListFilters, userListFiltersSchema } from '../request-params.js';
import { type User, userListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';
import { createListResource, type ListResource } from './list-resource.js';

export type UsersResource = ListResource<UserListFilters, User>;

export function createUsersResource(context: ResourceContext): UsersResource {
  return createListResource(context, {
    operation: 'users.list',
    action: 'list users',
    path: '/users/getUsers',
    filtersSchema: userListFiltersSchema,
    schema: userListSchema,
  });
}
