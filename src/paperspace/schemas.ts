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
