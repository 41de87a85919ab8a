// The test's own reading of Paperspace's v1 OpenAPI, for every operation the emulator serves under
// /v1. Read from the published document itself, openapi.json (version "1", servers
// https://api.paperspace.com/v1), as PierreBeucher/cloudypad keeps it at
// src/providers/paperspace/client/openapi/openapi.json; Paperspace/cli's api/openapi.ts is an older
// cut of the same document (its session has numeric ids and handles), so where the two differ the
// newer openapi.json is followed. Written by hand, not generated: each operation says which query
// parameters exist and their ranges or enums, which body fields exist and which are required, and
// what the answer holds.
//
// Both sides are strict, as the document is (`additionalProperties: false` on every object): a
// request or an answer with a field the document lacks fails, a required field missing fails, and a
// field is nullable only where the document says `nullable`, or where its own description says the
// value may be null (a page's `nextPage`, typed string, "is `null` when there is no next page").
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
/**
 * `anyOf` the ten listed sizes or `{ type: number, minimum: 0, exclusiveMinimum: true }`: any number
 * above 0, which the listed sizes already are. Drive sizes are typed the same way.
 */
const diskSize = z.number().gt(0);
/** `anyOf` "ny2", "ca1", "ams1" or any string: the three are named, others are not refused. */
const region = z.string();
const snapshotFrequency = z.enum(['hourly', 'daily', 'weekly', 'monthly']);
const publicIpType = z.enum(['static', 'dynamic', 'none']);
/** `dtDeleted` of networks, drives and custom templates: `anyOf [not {}, date-time]`, nullable, optional. */
const deletedAt = date.nullish();

const machine = z.strictObject({
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
  os: z.string(),
  machineType: z.string(),
  agentType: z.string(),
  cpus: z.number(),
  ram: z.int(),
  storageTotal: z.int(),
  storageUsed: z.int(),
  accelerators: z
    .array(z.strictObject({ name: z.string(), memory: z.int().nullable(), count: z.number() }))
    .nullish(),
  region,
  privateIp: z.string().nullable(),
  networkId: z.string().nullable(),
  publicIp: z.string().nullable(),
  publicIpType,
  autoShutdownEnabled: z.boolean(),
  autoShutdownTimeout: z.number().nullable(),
  autoShutdownForce: z.boolean().nullable(),
  autoSnapshotEnabled: z.boolean(),
  autoSnapshotFrequency: snapshotFrequency.nullable(),
  autoSnapshotSaveCount: z.number().nullable(),
  updatesPending: z.boolean(),
  restorePointEnabled: z.boolean(),
  restorePointFrequency: z.enum(['shutdown']).nullable(),
  restorePointSnapshotId: z.string().nullable(),
  usageRate: z.number(),
  storageRate: z.number(),
  dtCreated: date,
  dtModified: date,
  dtDeleted: date.nullable(),
  reservation: z
    .strictObject({
      name: z.string(),
      id: z.uuid(),
      dtStarted: date,
      dtFinished: date,
      isActive: z.boolean(),
    })
    .nullable(),
});
const event = z.strictObject({
  id: z.string(),
  name: z.enum([
    'bill-sessions',
    'bill-upgrade',
    'create',
    'deactivate',
    'restart',
    'snapshot-create',
    'snapshot-delete',
    'snapshot-restore',
    'start',
    'stop',
    'template-create',
    'template-delete',
    'template-distribute',
    'template-import',
    'vm-migrate',
    'vm-shutdown-force',
    'vm-upgrade',
  ]),
  state: z.enum(['new', 'in progress', 'done', 'error', 'cancelled']),
  machineId: z.string().nullable(),
  dtCreated: date,
  dtStarted: date.nullable(),
  dtFinished: date.nullable(),
  error: z.string().nullable(),
});
const page = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({ hasMore: z.boolean(), nextPage: z.string().nullish(), items: z.array(item) });
/** Start, stop, restart, create and delete answer the event to poll; an update may have none. */
const machineAction = z.strictObject({ data: machine, event });
const machineUpdate = z.strictObject({ data: machine, event: event.optional() });
const session = z
  .strictObject({
    user: z.strictObject({
      firstName: z.string().nullable(),
      lastName: z.string().nullable(),
      email: z.string(),
      dtCreated: date,
      dtConfirmed: date.nullable(),
      teamMemberships: z.array(
        z.strictObject({
          team: z.strictObject({
            name: z.string(),
            id: z.string(),
            namespace: z.string(),
            publicProfileImageUrl: z.string().nullish(),
            isUserTeam: z.boolean(),
            dtCreated: date,
          }),
          isOwner: z.boolean(),
          isAdmin: z.boolean(),
        }),
      ),
      isPhoneVerified: z.boolean(),
      isPasswordAuthEnabled: z.boolean(),
      isQrCodeBasedMfaEnabled: z.boolean(),
      isQrCodeBasedMfaConfirmed: z.boolean(),
      preferences: z
        .strictObject({
          defaultProduct: z.string().nullish(),
          defaultTeamId: z.string().nullish(),
          theme: z.enum(['light', 'dark']).nullish(),
          fontSize: z.number().nullish(),
          disableHotkeys: z.boolean().nullish(),
        })
        .nullish(),
      id: z.string(),
      analyticsId: z.number(),
      metadata: z.strictObject({
        tags: z.string().nullish(),
        coreSurvey: z.record(z.string(), z.string()).nullish(),
        gradientSurvey: z.record(z.string(), z.string()).nullish(),
        graphcoreTermsAccepted: z.boolean().optional(),
      }),
    }),
    team: z.strictObject({
      namespace: z.string(),
      isPrivate: z.boolean(),
      maxMachines: z.number(),
      id: z.string(),
      analyticsId: z.number(),
    }),
  })
  // "If a user is not logged in, this will be null."
  .nullable();
const teamMember = z.strictObject({
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  dtConfirmed: date.nullish(),
  user: z.strictObject({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    publicProfileImageUrl: z.string().nullish(),
    lastActive: date.nullish(),
  }),
});
const accessor = z.strictObject({
  user: z.strictObject({
    id: z.string(),
    email: z.email(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    publicProfileImageUrl: z.string().nullish(),
  }),
  dtDeleted: date.nullish(),
});
const templateFields = {
  id: z.string(),
  name: z.string(),
  agentType: z.string(),
  operatingSystemLabel: z.string(),
  availableMachineTypes: z.array(z.strictObject({ machineTypeLabel: z.string(), isAvailable: z.boolean() })),
  dtCreated: date,
};
/** An OS template's default size is nullable; a custom template's is not. */
const osTemplate = z.strictObject({ ...templateFields, defaultSizeGb: diskSize.nullable() });
const customTemplate = z.strictObject({
  ...templateFields,
  defaultSizeGb: diskSize,
  region,
  parentMachineId: z.string(),
  dtDeleted: deletedAt,
});
const network = z.strictObject({
  id: z.string(),
  name: z.string(),
  region,
  network: z.string(),
  netmask: z.string(),
  dtCreated: date,
  dtDeleted: deletedAt,
});
const drive = z.strictObject({
  id: z.string(),
  name: z.string(),
  dtCreated: date,
  dtDeleted: deletedAt,
  size: z.int(),
  mountPoint: z.string(),
  username: z.string(),
  password: z.string(),
  networkId: z.string(),
  region,
});
const script = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isEnabled: z.boolean(),
  isRunOnce: z.boolean(),
  assignedMachineIds: z.array(z.string()),
  dtCreated: date,
  dtDeleted: date.nullable(),
});
const deleted = z.strictObject({ id: z.string() });

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

const machineBodyFields = {
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
};

const V1_OPERATIONS: readonly V1Operation[] = [
  { method: 'GET', path: '/auth/session', query: noQuery, answer: session },
  {
    method: 'GET',
    path: '/machines',
    query: cursorQuery(['dtCreated', 'name', 'state'], {
      name: z.string().optional(),
      region: region.optional(),
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
      region,
      ...machineBodyFields,
      takeInitialSnapshot: z.boolean().optional(),
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
      ...machineBodyFields,
      restorePointSnapshotId: z.string().optional(),
    }),
    answer: machineUpdate,
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
    query: z.strictObject({ machineType: z.string(), region }),
    answer: z.strictObject({ available: z.boolean() }),
  },
  {
    method: 'GET',
    path: '/machines/{id}/accessors',
    query: cursorQuery(['id']),
    answer: page(accessor),
  },
  {
    method: 'POST',
    path: '/machines/{id}/accessors',
    query: noQuery,
    body: z.strictObject({ userId: z.string() }),
    answer: accessor,
  },
  ...(['GET', 'DELETE'] as const).map((method) => ({
    method,
    path: '/machines/{id}/accessors/{userId}',
    query: noQuery,
    answer: accessor,
  })),
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
    answer: page(osTemplate),
  },
  {
    method: 'GET',
    path: '/custom-templates',
    query: cursorQuery(['dtCreated', 'name'], {
      name: z.string().optional(),
      machineId: z.string().optional(),
    }),
    answer: page(customTemplate),
  },
  {
    method: 'GET',
    path: '/private-networks',
    query: cursorQuery(['dtCreated', 'name'], { name: z.string().optional(), region: region.optional() }),
    answer: page(network),
  },
  {
    method: 'POST',
    path: '/private-networks',
    query: noQuery,
    body: z.strictObject({ name: z.string(), region, migrateMachines: z.boolean().optional() }),
    answer: network,
  },
  // The document marks this one answer nullable; a missing network is still answered 404.
  { method: 'GET', path: '/private-networks/{id}', query: noQuery, answer: network.nullable() },
  {
    method: 'PUT',
    path: '/private-networks/{id}',
    query: noQuery,
    body: z.strictObject({ name: z.string().optional() }),
    answer: network,
  },
  { method: 'DELETE', path: '/private-networks/{id}', query: noQuery, answer: deleted },
  {
    method: 'GET',
    path: '/shared-drives',
    query: cursorQuery(['dtCreated', 'name'], { name: z.string().optional(), region: z.string().optional() }),
    answer: page(drive),
  },
  {
    method: 'POST',
    path: '/shared-drives',
    query: noQuery,
    body: z.strictObject({ name: z.string(), size: diskSize, region: z.string(), networkId: z.string() }),
    answer: drive,
  },
  { method: 'GET', path: '/shared-drives/{id}', query: noQuery, answer: drive },
  {
    method: 'PUT',
    path: '/shared-drives/{id}',
    query: noQuery,
    body: z.strictObject({ name: z.string().optional() }),
    answer: drive,
  },
  { method: 'DELETE', path: '/shared-drives/{id}', query: noQuery, answer: deleted },
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
  {
    method: 'PUT',
    path: '/startup-scripts/{id}',
    query: noQuery,
    body: z.strictObject({
      name: z.string().optional(),
      script: z.string().optional(),
      isRunOnce: z.boolean().optional(),
      isEnabled: z.boolean().optional(),
    }),
    answer: script,
  },
  // The document answers the deleted script whole, not only its id.
  { method: 'DELETE', path: '/startup-scripts/{id}', query: noQuery, answer: script },
  ...(['assign', 'unassign'] as const).map((verb) => ({
    method: 'POST',
    path: `/startup-scripts/{id}/${verb}`,
    query: noQuery,
    body: z.strictObject({ machineId: z.string() }),
    answer: script,
  })),
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
