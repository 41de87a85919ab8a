// The lists behind /ps list, templates, users, networks, scripts and drives. Every page, the first
// and each Prev/Next, is fetched again with the key of whoever asked or clicked: a list is never
// cached between people. Filters arrive as the text people typed (`cpus=4`, `state=off`) or from a
// button value that came back from Slack; they are typed here by the client's own request schemas,
// which then refuse anything wrong with a sentence naming the filter, before anything is sent.
import { z } from 'zod';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { RequestOptions } from '../../paperspace/http.js';
import {
  networkListFiltersSchema,
  templateListFiltersSchema,
  userListFiltersSchema,
} from '../../paperspace/request-params/list-filters.js';
import { machineTypeSchema } from '../../paperspace/request-params/machine-create-params.js';
import {
  type MachineFilters,
  machineListFiltersSchema,
} from '../../paperspace/request-params/machine-params.js';
import { parseRequest } from '../../paperspace/request-params/parse-request.js';
import { scriptListFiltersSchema } from '../../paperspace/request-params/script-params.js';
import type { Machine, Network, Script, SharedDrive, Template, User } from '../../paperspace/schemas.js';

const LISTING_KINDS = ['machines', 'templates', 'users', 'networks', 'scripts', 'drives'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

export type Listing =
  | { kind: 'machines'; items: Machine[] }
  | { kind: 'templates'; items: Template[] }
  | { kind: 'users'; items: User[] }
  | { kind: 'networks'; items: Network[] }
  | { kind: 'scripts'; items: Script[] }
  | { kind: 'drives'; items: SharedDrive[] };

/** Raw `key=value` filters, as typed or as carried by a page button. */
export type RawFilters = Readonly<Record<string, string>>;

/**
 * Everything of one kind that matches the filters, all pages of it (machines come 1000 a request).
 * Throws RequestValidationError for a filter the API does not take or a value of the wrong type.
 */
export async function fetchListing(
  client: PaperspaceClient,
  kind: ListingKind,
  filters: RawFilters,
  options?: RequestOptions,
): Promise<Listing> {
  switch (kind) {
    case 'machines': {
      // getMachines cannot filter by machine type (the contract lists no such filter), so the bot
      // filters the listed machines itself.
      const { machineType: typedType, ...apiFilters } = filters;
      // The contract's fixed list names a typo at once; v1's types are whatever its templates offer,
      // so there any label is compared, in any case, with the machines' own.
      const { machineType } = parseRequest(
        client.capabilities.machineTypes === 'fixed' ? machineTypeFilterSchema : anyMachineTypeFilterSchema,
        typedType === undefined ? {} : { machineType: typedType },
        'machines.list',
        'list machines',
      );
      const typed = typedFilters(machineListFiltersSchema, apiFilters);
      // Paging is listAll's business: a limit or skip smuggled into a page value must not steer it,
      // but a bad one is still named, with every other bad filter, as the schema words them.
      const { limit, skip, ...machineFilters } = typed;
      if (limit !== undefined || skip !== undefined)
        parseRequest(machineListFiltersSchema, typed, 'machines.list', 'list machines');
      const items: Machine[] = [];
      // listAll checks the filters against the same schema (both dialects) before it sends anything,
      // and refuses a bad one with the same words: checking them here as well only did the work twice.
      for await (const machine of client.machines.listAll(machineFilters as MachineFilters, options)) {
        if (machineType === undefined || machine.machineType.toLowerCase() === machineType.toLowerCase())
          items.push(machine);
      }
      return { kind, items };
    }
    case 'templates': {
      // A template is not tied to a region: every one creates machines in every region. The template
      // object has no region field, so Paperspace's equality filter on it matches nothing. The region is
      // checked (a typo is still named) and then not sent.
      const { region: _region, ...templateFilters } = parseRequest(
        templateListFiltersSchema,
        typedFilters(templateListFiltersSchema, filters),
        'templates.list',
        'list templates',
      );
      return { kind, items: await client.templates.list(templateFilters, options) };
    }
    case 'users':
      return { kind, items: await client.users.list(typedFilters(userListFiltersSchema, filters), options) };
    case 'networks':
      return {
        kind,
        items: await client.networks.list(typedFilters(networkListFiltersSchema, filters), options),
      };
    case 'scripts':
      return {
        kind,
        items: await client.scripts.list(typedFilters(scriptListFiltersSchema, filters), options),
      };
    case 'drives':
      if (Object.keys(filters).length > 0) {
        throw new UserFacingError('Shared drives cannot be filtered: `/ps drives` lists them all.');
      }
      return { kind, items: await client.sharedDrives.list({}, options) };
  }
}

const machineTypeFilterSchema = z.strictObject({ machineType: machineTypeSchema.optional() });
const anyMachineTypeFilterSchema = z.strictObject({
  machineType: z.string().trim().min(1, { error: 'must name a machine type' }).optional(),
});

/**
 * Turns typed text into the types a filter schema expects: `4` for a number filter, `true` for a
 * boolean one. A value that is not of that type is left as text, so the schema's own message
 * ("cpus must be a number") names the filter. Keys the schema does not know stay too, and the strict
 * schema refuses them by name.
 */
export function typedFilters<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  filters: RawFilters,
): Record<string, string | number | boolean> {
  const typed: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(filters)) {
    const field = Object.hasOwn(schema.shape, key) ? unwrapOptional(schema.shape[key]) : undefined;
    const text = value.trim();
    if (field instanceof z.ZodNumber && /^-?\d+(\.\d+)?$/.test(text)) typed[key] = Number(text);
    else if (field instanceof z.ZodBoolean && /^(true|false)$/i.test(text))
      typed[key] = text.toLowerCase() === 'true';
    else typed[key] = value;
  }
  return typed;
}

function unwrapOptional(field: unknown): unknown {
  return field instanceof z.ZodOptional ? field.unwrap() : field;
}
