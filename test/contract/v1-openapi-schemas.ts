// The test's own reading of Paperspace's v1 OpenAPI (Paperspace/cli api/openapi.ts, and the newer
// openapi.json with its enums and nullable fields), for the operations the bot's client uses. Written
// by hand from those documents, not generated: each operation says which query parameters exist and
// their ranges or enums, which body fields exist and which are required, and what the answer holds.
// Request schemas are strict (a field the specification does not have fails); answers are checked
// for what the specification marks required.
import { z } from 'zod';

const cursorQuery = (orderBy: readonly [string, ...string[]], filters: Record<string, z.ZodType> = {}) =>
  z.strictObject({
    after: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(120).optional(),
    orderBy: z.enum(orderBy).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    ...filters,
  });
const noQuery = z.strictObject({});
const date = z.iso.datetime({ offset: true });
const diskSize = z.union([z.literal([50, 100, 250, 500, 1000, 2000, 4000, 8000, 12000, 16000]), z.number()]);
const snapshotFrequency = z.enum(['hourly', 'daily', 'weekly', 'monthly']);
const publicIpType = z.enum(['static', 'dynamic', 'none']);

const machine = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum([
    'off',
    'starting',
    'stopping',
    'restarting',
    'serviceready',
    'ready',
    'upgrading',
    'provisioning',
  ]),
  machineType: z.string(),
  agentType: z.string(),
  cpus: z.number(),
  ram: z.number(),
  storageTotal: z.number(),
  storageUsed: z.number(),
  usageRate: z.number(),
  storageRate: z.number(),
  region: z.string(),
  publicIpType: publicIpType.nullable(),
  autoShutdownEnabled: z.boolean(),
  autoSnapshotFrequency: snapshotFrequency.nullable(),
  dtCreated: date,
});
const event = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(['new', 'in progress', 'done', 'error', 'cancelled']),
  dtCreated: date,
});
const page = <Item extends z.ZodType>(item: Item) =>
  z.object({ hasMore: z.boolean(), nextPage: z.string().nullish(), items: z.array(item) });
const machineAction = z.object({ data: machine, event: event.optional() });
const team = z.object({ id: z.string(), namespace: z.string(), isPrivate: z.boolean() });
const session = z
  .object({
    user: z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      dtCreated: date,
      teamMemberships: z.array(
        z.object({
          isAdmin: z.boolean(),
          isOwner: z.boolean(),
          team: z.object({
            id: z.string(),
            name: z.string(),
            namespace: z.string(),
            isUserTeam: z.boolean(),
            dtCreated: date,
          }),
        }),
      ),
    }),
    team,
  })
  .nullable();
const teamMember = z.object({
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  user: z.object({ id: z.string(), email: z.string() }),
});
const template = z.object({ id: z.string(), name: z.string() });
const network = z.object({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  network: z.string(),
  netmask: z.string(),
});
const drive = z.object({ id: z.string(), name: z.string(), size: z.number(), region: z.string() });
const script = z.object({ id: z.string(), name: z.string(), isEnabled: z.boolean(), isRunOnce: z.boolean() });

/** The OpenAPI's `error` response: code and message, an optional details object, nothing else. */
export const v1ErrorBody = z.strictObject({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The code of each status. The OpenAPI types `code` as a string; these are the names v1 answers with
 * (tRPC's error codes, the list paperspace-api-v1.md gives), 405 being tRPC's METHOD_NOT_SUPPORTED.
 */
export const V1_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
};

interface V1Operation {
  readonly method: string;
  /** The path under /v1 with `{name}` parameters. */
  readonly path: string;
  readonly query: z.ZodType;
  readonly body?: z.ZodType;
  readonly answer: z.ZodType;
}

const V1_OPERATIONS: readonly V1Operation[] = [
  { method: 'GET', path: '/auth/session', query: noQuery, answer: session },
  {
    method: 'GET',
    path: '/machines',
    query: cursorQuery(['dtCreated', 'name', 'state'], {
      name: z.string().optional(),
      region: z.string().optional(),
      agentType: z.string().optional(),
      machineType: z.string().optional(),
    }),
    answer: page(machine),
  },
  {
    method: 'POST',
    path: '/machines',
    query: noQuery,
    body: z.strictObject({
      name: z.string(),
      machineType: z.string(),
      templateId: z.string(),
      diskSize,
      region: z.string(),
      networkId: z.string().optional(),
      publicIpType: publicIpType.optional(),
      autoSnapshotEnabled: z.boolean().optional(),
      autoSnapshotFrequency: snapshotFrequency.optional(),
      autoSnapshotSaveCount: z.number().optional(),
      autoShutdownEnabled: z.boolean().optional(),
      autoShutdownTimeout: z.number().optional(),
      autoShutdownForce: z.boolean().optional(),
      takeInitialSnapshot: z.boolean().optional(),
      restorePointEnabled: z.boolean().optional(),
      restorePointFrequency: z.enum(['shutdown']).optional(),
      startupScriptId: z.string().optional(),
      emailPassword: z.boolean().optional(),
      startOnCreate: z.boolean().optional(),
      enableNvlink: z.boolean().optional(),
      accessorIds: z.array(z.string()).optional(),
    }),
    answer: machineAction,
  },
  { method: 'GET', path: '/machines/{id}', query: noQuery, answer: machine },
  {
    method: 'PUT',
    path: '/machines/{id}',
    query: noQuery,
    body: z.strictObject({
      name: z.string().optional(),
      machineType: z.string().optional(),
      diskSize: diskSize.optional(),
      networkId: z.string().optional(),
      publicIpType: publicIpType.optional(),
      autoSnapshotEnabled: z.boolean().optional(),
      autoSnapshotFrequency: snapshotFrequency.optional(),
      autoSnapshotSaveCount: z.number().optional(),
      autoShutdownEnabled: z.boolean().optional(),
      autoShutdownTimeout: z.number().optional(),
      autoShutdownForce: z.boolean().optional(),
      restorePointEnabled: z.boolean().optional(),
      restorePointFrequency: z.enum(['shutdown']).optional(),
      restorePointSnapshotId: z.string().optional(),
    }),
    answer: machineAction,
  },
  { method: 'DELETE', path: '/machines/{id}', query: noQuery, answer: machineAction },
  ...(['start', 'stop', 'restart'] as const).map((verb) => ({
    method: 'PATCH',
    path: `/machines/{id}/${verb}`,
    query: noQuery,
    body: z.strictObject({}),
    answer: machineAction,
  })),
  {
    method: 'GET',
    path: '/machine-events',
    query: cursorQuery(['dtCreated'], { machineId: z.string().optional() }),
    answer: page(event),
  },
  { method: 'GET', path: '/machine-events/{id}', query: noQuery, answer: event },
  {
    method: 'GET',
    path: '/machine-availability',
    query: z.strictObject({ machineType: z.string(), region: z.string() }),
    answer: z.object({ available: z.boolean() }),
  },
  {
    method: 'GET',
    path: '/machines/{id}/accessors',
    query: cursorQuery(['id']),
    answer: page(z.object({ user: z.object({ id: z.string() }) })),
  },
  {
    method: 'POST',
    path: '/machines/{id}/accessors',
    query: noQuery,
    body: z.strictObject({ userId: z.string() }),
    answer: z.object({ user: z.object({ id: z.string() }) }),
  },
  {
    method: 'GET',
    path: '/teams/{teamId}/users',
    query: cursorQuery(['dtConfirmed'], { role: z.enum(['member', 'admin', 'owner']).optional() }),
    answer: page(teamMember),
  },
  {
    method: 'GET',
    path: '/os-templates',
    query: cursorQuery(['name'], { name: z.string().optional() }),
    answer: page(template),
  },
  {
    method: 'GET',
    path: '/custom-templates',
    query: cursorQuery(['dtCreated', 'name'], {
      name: z.string().optional(),
      machineId: z.string().optional(),
    }),
    answer: page(template),
  },
  {
    method: 'GET',
    path: '/private-networks',
    query: cursorQuery(['dtCreated', 'name'], { name: z.string().optional(), region: z.string().optional() }),
    answer: page(network),
  },
  {
    method: 'GET',
    path: '/shared-drives',
    query: cursorQuery(['dtCreated', 'name'], { name: z.string().optional(), region: z.string().optional() }),
    answer: page(drive),
  },
  {
    method: 'GET',
    path: '/startup-scripts',
    query: cursorQuery(['dtCreated', 'name'], { name: z.string().optional() }),
    answer: page(script),
  },
  {
    method: 'POST',
    path: '/startup-scripts',
    query: noQuery,
    body: z.strictObject({ name: z.string(), script: z.string(), isRunOnce: z.boolean().optional() }),
    answer: script,
  },
  { method: 'GET', path: '/startup-scripts/{id}', query: noQuery, answer: script },
  { method: 'DELETE', path: '/startup-scripts/{id}', query: noQuery, answer: z.object({ id: z.string() }) },
];

/** The operation a logged request is, by method and path (parameters match one segment). */
export function operationOf(method: string, path: string): V1Operation | undefined {
  const relative = path.replace(/^\/v1/, '');
  return V1_OPERATIONS.find((operation) => {
    if (operation.method !== method) return false;
    const pattern = new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(relative);
  });
}
