// zod schemas of what the Paperspace API sends back. They validate what the bot relies on and keep
// everything else: the real API returns more fields than the contract lists (userId, teamId, ...)
// and more enum values than it names (agentType "WindowsDesktop", event states "in progress", ...),
// so objects are loose and open vocabularies are plain strings typed with the known values as hints.
import { z } from 'zod';
import type { AutoSnapshotFrequency, MachineState } from './constants.js';

/** A string from an open vocabulary: the known values autocomplete, unknown ones still type-check. */
type OpenString<Known extends string> = Known | (string & {});

const openString = <Known extends string>() => z.string() as unknown as z.ZodType<OpenString<Known>>;

/** Byte counts arrive as strings ("53687091200"); some clients have seen numbers. Keep a string. */
const byteString = z.union([z.string(), z.number().transform(String)]);

const machineEventSchema = z.looseObject({
  name: openString<'start' | 'stop' | 'restart' | 'create' | 'deactivate'>(),
  state: openString<'new' | 'in progress' | 'done' | 'error'>(),
  errorMsg: z.string().nullish(),
  handle: z.string(),
  dtModified: z.string().nullish(),
  dtFinished: z.string().nullish(),
  dtCreated: z.string(),
});
export type MachineEvent = z.infer<typeof machineEventSchema>;

export const machineSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  os: z.string().nullable(),
  ram: byteString.nullable(),
  cpus: z.number(),
  gpu: z.string().nullable(),
  storageTotal: byteString.nullable(),
  storageUsed: byteString.nullable(),
  machineType: z.string(),
  usageRate: z.string(),
  shutdownTimeoutInHours: z.number().nullable(),
  shutdownTimeoutForces: z.boolean(),
  performAutoSnapshot: z.boolean(),
  autoSnapshotFrequency: openString<AutoSnapshotFrequency>().nullable(),
  autoSnapshotSaveCount: z.number().nullable(),
  dynamicPublicIp: z.boolean().nullable(),
  agentType: openString<'LinuxHeadless' | 'LinuxDesktop' | 'WindowsDesktop'>(),
  dtCreated: z.string(),
  state: openString<MachineState>(),
  updatesPending: z.boolean(),
  networkId: z.string().nullable(),
  privateIpAddress: z.string().nullable(),
  publicIpAddress: z.string().nullable(),
  region: z.string().nullable(),
  scriptId: z.string().nullable(),
  dtLastRun: z.string().nullable(),
  restorePointSnapshotId: z.string().nullish(),
  restorePointFrequency: z.string().nullish(),
  internalId: z.number().optional(),
  events: z.array(machineEventSchema).optional(),
});
export type Machine = z.infer<typeof machineSchema>;

/** A machine as returned by show and by waitForState: events are always present. */
export const machineWithEventsSchema = machineSchema.extend({ events: z.array(machineEventSchema) });
export type MachineWithEvents = z.infer<typeof machineWithEventsSchema>;

export const machineListSchema = z.array(machineSchema);

/** How the HTTP core reads a success body: a zod schema, or one with a faster way in (acceptedInPlace). */
export type ResponseSchema<T> = Pick<z.ZodType<T>, 'safeParse'>;

/**
 * `schema`, with the bodies that `accepts` recognises as valid answered without zod: those are kept as
 * they came, after `accepts` has made in place the one change the schema would (a byte count sent as
 * a number becomes a string). Every other body goes to `schema`, which decides and says what is wrong,
 * so `accepts` can only accept sooner, never refuse. Why: zod copies every object it parses and builds
 * a result for each field on the way, and the machine lists the bot reads for every /ps list, page,
 * App Home and watch poll came to a large share of all it allocated per request, and so of the time
 * it spent collecting garbage. test/paperspace/accepted-in-place.test.ts holds each `accepts` to its
 * schema, field by field.
 */
function acceptedInPlace<T>(schema: z.ZodType<T>, accepts: (value: unknown) => boolean): ResponseSchema<T> {
  return {
    safeParse: (value, params) =>
      accepts(value) ? { success: true, data: value as T } : schema.safeParse(value, params),
  };
}

type Check = (value: unknown) => boolean;
const isText: Check = (value) => typeof value === 'string';
// z.number() refuses NaN and the infinities (which JSON cannot carry anyway).
const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isFlag: Check = (value) => typeof value === 'boolean';
/** .nullable() */
const orNull = (check: Check): Check => {
  return (value) => value === null || check(value);
};
/** .optional() */
const orAbsent = (check: Check): Check => {
  return (value) => value === undefined || check(value);
};
/** .nullish() */
const orNullOrAbsent = (check: Check): Check => {
  return (value) => value === null || value === undefined || check(value);
};
const isByteCount: Check = (value) => isText(value) || isNumber(value);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** machineEventSchema's fields, as it checks them. */
const EVENT_FIELDS: readonly (readonly [string, Check])[] = [
  ['name', isText],
  ['state', isText],
  ['errorMsg', orNullOrAbsent(isText)],
  ['handle', isText],
  ['dtModified', orNullOrAbsent(isText)],
  ['dtFinished', orNullOrAbsent(isText)],
  ['dtCreated', isText],
];
/** machineSchema's fields, as it checks them; BYTE_FIELDS are its byteStrings. */
const MACHINE_FIELDS: readonly (readonly [string, Check])[] = [
  ['id', isText],
  ['name', isText],
  ['os', orNull(isText)],
  ['ram', orNull(isByteCount)],
  ['cpus', isNumber],
  ['gpu', orNull(isText)],
  ['storageTotal', orNull(isByteCount)],
  ['storageUsed', orNull(isByteCount)],
  ['machineType', isText],
  ['usageRate', isText],
  ['shutdownTimeoutInHours', orNull(isNumber)],
  ['shutdownTimeoutForces', isFlag],
  ['performAutoSnapshot', isFlag],
  ['autoSnapshotFrequency', orNull(isText)],
  ['autoSnapshotSaveCount', orNull(isNumber)],
  ['dynamicPublicIp', orNull(isFlag)],
  ['agentType', isText],
  ['dtCreated', isText],
  ['state', isText],
  ['updatesPending', isFlag],
  ['networkId', orNull(isText)],
  ['privateIpAddress', orNull(isText)],
  ['publicIpAddress', orNull(isText)],
  ['region', orNull(isText)],
  ['scriptId', orNull(isText)],
  ['dtLastRun', orNull(isText)],
  ['restorePointSnapshotId', orNullOrAbsent(isText)],
  ['restorePointFrequency', orNullOrAbsent(isText)],
  ['internalId', orAbsent(isNumber)],
  ['events', orAbsent((events) => Array.isArray(events) && events.every(isEvent))],
];
const BYTE_FIELDS = ['ram', 'storageTotal', 'storageUsed'] as const;

function hasFields(value: unknown, fields: readonly (readonly [string, Check])[]): boolean {
  if (!isObject(value)) return false;
  for (let index = 0; index < fields.length; index += 1) {
    const [key, check] = fields[index] as readonly [string, Check];
    if (!check(value[key])) return false;
  }
  return true;
}

function isEvent(value: unknown): boolean {
  return hasFields(value, EVENT_FIELDS);
}

/** machineSchema's check, and its transform made in place. */
function acceptsMachine(value: unknown): boolean {
  if (!hasFields(value, MACHINE_FIELDS)) return false;
  const machine = value as Record<string, unknown>;
  for (const key of BYTE_FIELDS) {
    if (typeof machine[key] === 'number') machine[key] = String(machine[key]);
  }
  return true;
}

/** machineListSchema, answered in place for a body it accepts. */
export const machineListBody = acceptedInPlace(
  machineListSchema,
  (value) => Array.isArray(value) && value.every(acceptsMachine),
);
/** machineWithEventsSchema, answered in place for a body it accepts. */
export const machineWithEventsBody = acceptedInPlace(
  machineWithEventsSchema,
  (value) => isObject(value) && Array.isArray(value.events) && acceptsMachine(value),
);

const usageSchema = z.looseObject({
  machineId: z.string(),
  secondsUsed: z.number(),
  billingMonth: z.string(),
});

export const machineUtilizationSchema = z.looseObject({
  machineId: z.string(),
  utilization: usageSchema.extend({ hourlyRate: z.string() }),
  storageUtilization: usageSchema.extend({ monthlyRate: z.string() }),
});
export type MachineUtilization = z.infer<typeof machineUtilizationSchema>;

export const availabilitySchema = z.looseObject({ available: z.boolean() });
export type Availability = z.infer<typeof availabilitySchema>;

export const scriptSchema = z.looseObject({
  id: z.string(),
  ownerType: openString<'user' | 'team'>(),
  ownerId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  dtCreated: z.string(),
  isEnabled: z.boolean(),
  runOnce: z.boolean(),
  // The contract leaves the element shape open; keep whatever arrives.
  machines: z.array(z.unknown()).optional(),
});
export type Script = z.infer<typeof scriptSchema>;
export const scriptListSchema = z.array(scriptSchema);

/** getScriptText answers with a bare JSON string. */
export const scriptTextSchema = z.string();

const templateSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  label: z.string().nullable(),
  os: z.string(),
  dtCreated: z.string(),
  /**
   * The machine types it can create, where the API says so per template (v1); absent in the
   * contract, where the fixed list (constants.ts) and the OS rules decide.
   */
  machineTypes: z.array(z.string()).optional(),
});
export type Template = z.infer<typeof templateSchema>;
export const templateListSchema = z.array(templateSchema);

const userSchema = z.looseObject({
  id: z.string(),
  email: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  dtCreated: z.string(),
  teamId: z.string(),
});
export type User = z.infer<typeof userSchema>;
export const userListSchema = z.array(userSchema);

const networkSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  dtCreated: z.string(),
  network: z.string(),
  netmask: z.string(),
  teamId: z.string(),
});
export type Network = z.infer<typeof networkSchema>;
export const networkListSchema = z.array(networkSchema);

export const resourceDelegationSchema = z.looseObject({
  id: z.number(),
  delegation: z.looseObject({
    machine: z.looseObject({ ids: z.array(z.string()) }).optional(),
  }),
  isEnabled: z.boolean(),
  accessTokenId: z.string(),
  dtCreated: z.string(),
});
export type ResourceDelegation = z.infer<typeof resourceDelegationSchema>;

export const sharedDriveSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  mountPoint: z.string().optional(),
  size: z.number().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  region: z.looseObject({ name: z.string() }).optional(),
});
export type SharedDrive = z.infer<typeof sharedDriveSchema>;

/**
 * Operations whose success body the contract does not show (start, stop, restart, destroy, update,
 * setMachineAccess, script destroy): 204, an empty body, text or any JSON all mean "done".
 */
export const acknowledgementSchema = z.unknown();

// ---- GraphQL (shared drives) ----

const graphqlErrorSchema = z.looseObject({
  message: z.string(),
  path: z.array(z.union([z.string(), z.number()])).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type GraphqlError = z.infer<typeof graphqlErrorSchema>;

/** Every GraphQL answer: `data` is checked per operation once `errors` is known to be empty. */
export const graphqlEnvelopeSchema = z.looseObject({
  data: z.unknown().optional(),
  errors: z.array(graphqlErrorSchema).optional(),
});

export const sharedDrivesDataSchema = z.looseObject({
  sharedDrives: z.looseObject({ nodes: z.array(sharedDriveSchema) }),
});

export const createSharedDriveDataSchema = z.looseObject({
  createSharedDrive: z.looseObject({ sharedDrive: sharedDriveSchema }),
});

export const deleteSharedDriveDataSchema = z.looseObject({
  deleteSharedDrive: z.looseObject({ sharedDrive: z.looseObject({ id: z.string() }) }),
});
