// zod schemas of what Paperspace's v1 API sends (https://api.paperspace.com/v1, from the OpenAPI
// typings of Paperspace/cli). Like the contract's schemas they check what the bot relies on and keep
// the rest: objects are loose, enums are open strings, and fields the typings mark required but the
// bot does not need are optional, so a field Paperspace drops tomorrow does not break a listing.
import { z } from 'zod';

/** Dates arrive as ISO strings; the typings say Date because their client revives them. */
const date = z.string();

const v1AcceleratorSchema = z.looseObject({
  name: z.string(),
  count: z.number(),
  memory: z.number().nullish(),
});

export const v1MachineSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  state: z.string(),
  machineType: z.string(),
  agentType: z.string(),
  os: z.string().nullish(),
  cpus: z.number(),
  ram: z.number().nullish(),
  accelerators: z.array(v1AcceleratorSchema).nullish(),
  storageTotal: z.number().nullish(),
  storageUsed: z.number().nullish(),
  usageRate: z.number().nullish(),
  storageRate: z.number().nullish(),
  region: z.string().nullish(),
  networkId: z.string().nullish(),
  privateIp: z.string().nullish(),
  publicIp: z.string().nullish(),
  publicIpType: z.string().nullish(),
  autoShutdownEnabled: z.boolean().nullish(),
  autoShutdownTimeout: z.number().nullish(),
  autoShutdownForce: z.boolean().nullish(),
  autoSnapshotEnabled: z.boolean().nullish(),
  autoSnapshotFrequency: z.string().nullish(),
  autoSnapshotSaveCount: z.number().nullish(),
  restorePointFrequency: z.string().nullish(),
  restorePointSnapshotId: z.string().nullish(),
  updatesPending: z.boolean().nullish(),
  dtCreated: date,
});
export type V1Machine = z.infer<typeof v1MachineSchema>;

export const v1EventSchema = z.looseObject({
  id: z.string(),
  machineId: z.string().nullish(),
  name: z.string(),
  state: z.string(),
  error: z.string().nullish(),
  dtCreated: date,
  dtStarted: date.nullish(),
  dtFinished: date.nullish(),
});
export type V1Event = z.infer<typeof v1EventSchema>;

/** What create, start, stop, restart, update and delete answer: the machine and the event to follow. */
export const v1MachineActionSchema = z.looseObject({
  data: v1MachineSchema,
  event: v1EventSchema.nullish(),
});

/** One page of any v1 list. `nextPage` is absent (or null) on the last page. */
export const v1PageSchema = <Item extends z.ZodType>(item: Item) =>
  z.looseObject({
    items: z.array(item),
    hasMore: z.boolean(),
    nextPage: z.string().nullish(),
  });

export const v1ScriptSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  isEnabled: z.boolean(),
  isRunOnce: z.boolean(),
  assignedMachineIds: z.array(z.string()).nullish(),
  dtCreated: date,
});
export type V1Script = z.infer<typeof v1ScriptSchema>;

export const v1TemplateSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  agentType: z.string().nullish(),
  operatingSystemLabel: z.string().nullish(),
  defaultSizeGb: z.number().nullish(),
  region: z.string().nullish(),
  availableMachineTypes: z
    .array(z.looseObject({ machineTypeLabel: z.string(), isAvailable: z.boolean() }))
    .nullish(),
  dtCreated: date,
});
export type V1Template = z.infer<typeof v1TemplateSchema>;

export const v1TeamMemberSchema = z.looseObject({
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  dtConfirmed: date.nullish(),
  user: z.looseObject({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
  }),
});
export type V1TeamMember = z.infer<typeof v1TeamMemberSchema>;

/** One of `/machines/{id}/accessors`: a team member given access; `dtDeleted` once removed. */
export const v1AccessorSchema = z.looseObject({
  user: z.looseObject({ id: z.string() }),
  dtDeleted: date.nullish(),
});

export const v1NetworkSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  region: z.string(),
  network: z.string(),
  netmask: z.string(),
  dtCreated: date,
});
export type V1Network = z.infer<typeof v1NetworkSchema>;

export const v1SharedDriveSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  mountPoint: z.string().nullish(),
  size: z.number().nullish(),
  username: z.string().nullish(),
  password: z.string().nullish(),
  region: z.string().nullish(),
  networkId: z.string().nullish(),
});
export type V1SharedDrive = z.infer<typeof v1SharedDriveSchema>;

/**
 * `GET /auth/session`. The OpenAPI marks the whole answer nullable: "if a user is not logged in, this
 * will be null", a 200 for a key Paperspace does not know (its CLI reports it as an invalid key).
 */
const v1SessionSchema = z.looseObject({
  user: z.looseObject({
    id: z.string(),
    email: z.string(),
    firstName: z.string().nullish(),
    lastName: z.string().nullish(),
    teamMemberships: z
      .array(
        z.looseObject({
          isAdmin: z.boolean(),
          isOwner: z.boolean(),
          team: z.looseObject({ id: z.string() }),
        }),
      )
      .nullish(),
  }),
  team: z.looseObject({ id: z.string(), namespace: z.string().nullish() }),
});
export type V1Session = z.infer<typeof v1SessionSchema>;
export const v1SessionAnswerSchema = v1SessionSchema.nullable();

export const v1AvailabilitySchema = z.looseObject({ available: z.boolean() });
