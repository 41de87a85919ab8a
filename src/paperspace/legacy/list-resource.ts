// A resource the contract offers only a filtered list of (templates, users, networks): one GET with
// the filters checked by their request schema and sent as the query string, safe to retry. Each such
// resource differs only in what this takes, so the call itself is written once.
import type { z } from 'zod';
import type { QueryValue } from '../http.js';
import { parseRequest } from '../request-params/parse-request.js';
import type { ListResource } from '../resources.js';
import type { ResourceContext } from './context.js';

export interface ListOperation<Filters, Item> {
  /** Client operation name for metrics and errors, e.g. `networks.list`. */
  operation: string;
  /** The verb phrase messages use, e.g. "list networks". */
  action: string;
  /** The contract's REST path, e.g. `/networks/getNetworks`. */
  path: string;
  /** The filters the contract accepts; what it outputs is the query string. */
  filtersSchema: z.ZodType<Record<string, QueryValue>, Filters>;
  /** The response body. */
  schema: z.ZodType<Item[]>;
}

export function createListResource<Filters, Item>(
  { core, restUrl }: ResourceContext,
  { operation, action, path, filtersSchema, schema }: ListOperation<Filters, Item>,
): ListResource<Filters, Item> {
  return {
    async list(filters, options) {
      const query = parseRequest(filtersSchema, filters ?? {}, operation, action);
      const response = await core.send({
        ...options,
        operation,
        action,
        method: 'GET',
        url: restUrl(path),
        query,
        credential: 'apiKey',
        schema,
        idempotent: true,
      });
      return response.data;
    },
  };
}
