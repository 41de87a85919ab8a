// The parameters of every machine request but create (machine-create-params.ts): ids, updates, list
// filters, destroy, access, usage, availability and waitForState.
import { z } from 'zod';
import {
  AUTO_SNAPSHOT_FREQUENCIES,
  DEDICATED_GPU_MACHINE_TYPES,
  MACHINE_LIST_PAGE_SIZE,
  MACHINE_STATES,
  WAITABLE_STATES,
} from '../constants.js';
import {
  choice,
  filterFlag,
  filterNumber,
  filterText,
  flag,
  mustBe,
  nonNegativeWholeNumber,
  oneOf,
  pathId,
  positiveWholeNumber,
  regionSchema,
  text,
  wholeNumber,
} from './fields.js';

export const machineIdSchema = pathId();

export const updateMachineParamsSchema = z
  .strictObject({
    machineName: text().optional(),
    shutdownTimeoutInHours: nonNegativeWholeNumber().optional(),
    shutdownTimeoutForces: flag().optional(),
    // The contract types this field "number" but describes it as one of hour, day, week or null, the
    // same vocabulary as the machine's own autoSnapshotFrequency: the "number" is a documentation
    // error, so the client sends the strings (and null to turn the schedule off).
    autoSnapshotFrequency: choice(AUTO_SNAPSHOT_FREQUENCIES).nullable().optional(),
    autoSnapshotSaveCount: nonNegativeWholeNumber().optional(),
    performAutoSnapshot: flag().optional(),
    dynamicPublicIp: flag().optional(),
    assignPublicIp: flag().optional(),
  })
  // Paperspace refuses a new static IP and a dynamic one in the same change: the person chooses.
  .superRefine((params, ctx) => {
    if (params.assignPublicIp === true && params.dynamicPublicIp === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['assignPublicIp'],
        message: 'cannot be combined with dynamicPublicIp: choose a static or a dynamic public IP, not both',
      });
    }
  });
export type UpdateMachineParams = z.input<typeof updateMachineParamsSchema>;

export const machineListFiltersSchema = z.strictObject({
  machineId: filterText(),
  // getMachines matches on machineId; an `id` filter would be ignored and list every machine.
  id: z.never({ error: 'is not a machine filter; use machineId' }).optional(),
  name: filterText(),
  os: filterText(),
  ram: filterText(),
  gpu: filterText(),
  storageTotal: filterText(),
  storageUsed: filterText(),
  usageRate: filterText(),
  autoSnapshotFrequency: choice(AUTO_SNAPSHOT_FREQUENCIES).optional(),
  agentType: filterText(),
  dtCreated: filterText(),
  state: choice(MACHINE_STATES).optional(),
  networkId: filterText(),
  privateIpAddress: filterText(),
  publicIpAddress: filterText(),
  region: regionSchema.optional(),
  userId: filterText(),
  teamId: filterText(),
  scriptId: filterText(),
  dtLastRun: filterText(),
  cpus: filterNumber(),
  shutdownTimeoutInHours: filterNumber(),
  autoSnapshotSaveCount: filterNumber(),
  performAutoSnapshot: filterFlag(),
  updatesPending: filterFlag(),
  limit: wholeNumber(1, `a whole number from 1 to ${MACHINE_LIST_PAGE_SIZE}`)
    .max(MACHINE_LIST_PAGE_SIZE, { error: `must be a whole number from 1 to ${MACHINE_LIST_PAGE_SIZE}` })
    .optional(),
  skip: nonNegativeWholeNumber().optional(),
});
export type MachineListFilters = z.input<typeof machineListFiltersSchema>;
/** Filters for listAll, which owns paging itself. */
export type MachineFilters = Omit<MachineListFilters, 'limit' | 'skip'>;

export const destroyMachineParamsSchema = z.strictObject({ releasePublicIp: flag().optional() });
export type DestroyMachineParams = z.input<typeof destroyMachineParamsSchema>;

export const setMachineAccessParamsSchema = z.strictObject({ userId: text(), enableAccess: flag() });
export type SetMachineAccessParams = z.input<typeof setMachineAccessParamsSchema>;

const billingMonthSchema = z
  .string({ error: mustBe('a month written YYYY-MM') })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'must be a month written YYYY-MM, e.g. 2024-05' });

export const utilizationParamsSchema = z.strictObject({
  machineId: machineIdSchema,
  billingMonth: billingMonthSchema,
});

export const availabilityParamsSchema = z.strictObject({
  region: regionSchema,
  machineType: z.enum(DEDICATED_GPU_MACHINE_TYPES, {
    error: (issue) =>
      issue.input === undefined
        ? 'is required'
        : `must be ${oneOf(DEDICATED_GPU_MACHINE_TYPES)}: Paperspace reports availability only for dedicated GPU types`,
  }),
});
/** v1 reports availability for any type it sells: its catalog is the templates', not a fixed list. */
export const v1AvailabilityParamsSchema = z.strictObject({
  region: regionSchema,
  machineType: z.string({ error: 'is required' }).trim().min(1, { error: 'must name a machine type' }),
});
export type AvailabilityParams = z.input<typeof v1AvailabilityParamsSchema>;

export const waitForStateParamsSchema = z.strictObject({
  machineId: machineIdSchema,
  state: choice(WAITABLE_STATES),
  timeoutMs: positiveWholeNumber(),
  intervalMs: positiveWholeNumber(),
});
