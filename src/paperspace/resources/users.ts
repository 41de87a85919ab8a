// Users of the caller's account or team.
import type { RequestOptions } from '../http.js';
import { parseRequest, type UserListFilters, userListFiltersSchema } from '../requests.js';
import { type User, userListSchema } from '../schemas.js';
import type { ResourceContext } from './context.js';

export interface UsersResource {
  list(filters?: UserListFilters, options?: RequestOptions): Promise<User[]>;
}

export function createUsersResource({ core, restUrl }: ResourceContext): UsersResource {
  return {
    async list(filters = {}, options) {
      const query = parseRequest(userListFiltersSchema, filters, 'users.list', 'list users');
      const response = await core.send({
        ...options,
        operation: 'users.list',
        action: 'list users',
        method: 'GET',
        url: restUrl('/users/getUsers'),
        query,
        credential: 'apiKey',
        schema: userListSchema,
        idempotent: true,
      });
      return response.data;
    },
  };
}
