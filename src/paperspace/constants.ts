// The fixed vocabularies of the Paperspace machine API contract
// (../shared/paperspace-api-contract.md). Both the client and the emulator import these, so a
// string that the contract spells one way is spelled that way exactly once in the code.

import type { Dialect } from './dialect.js';

/**
 * The regions, named as the contract names them; the one list for both dialects. v1 names a region by
 * an id (`ny2`), which is this name's code in lower case (v1/mapping.ts), so people may type either.
 * v1's typings give no list of regions: `region` is a free string on machines, networks and custom
 * templates, and a template's availableMachineTypes carry no region. So the list stays fixed here; what
 * v1 does say, a custom template's one region, is enforced where a create names the template
 * (requests.ts).
 */
export const REGIONS = ['West Coast (CA1)', 'East Coast (NY2)', 'Europe (AMS1)'] as const;
export type Region = (typeof REGIONS)[number];

/** `West Coast (CA1)` -> `CA1`: the code people type, and (in lower case) v1's region id. */
export function regionCode(region: Region): string {
  return /\(([^)]+)\)$/.exec(region)?.[1] ?? region;
}

/** CPU-only types: Windows templates cannot create these. */
export const CPU_MACHINE_TYPES = ['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7', 'C8', 'C9', 'C10'] as const;
/** GRID GPU types: Ubuntu templates cannot create these. */
export const GRID_MACHINE_TYPES = ['Air', 'Standard', 'Pro', 'Advanced'] as const;
/** Dedicated GPU types: the only ones for which availability is reported. */
export const DEDICATED_GPU_MACHINE_TYPES = ['GPU+', 'P4000', 'P5000', 'P6000', 'V100'] as const;

export const MACHINE_TYPES = [
  ...GRID_MACHINE_TYPES,
  ...DEDICATED_GPU_MACHINE_TYPES,
  ...CPU_MACHINE_TYPES,
] as const;
export type CpuMachineType = (typeof CPU_MACHINE_TYPES)[number];
export type GridMachineType = (typeof GRID_MACHINE_TYPES)[number];
export type DedicatedGpuMachineType = (typeof DEDICATED_GPU_MACHINE_TYPES)[number];

export const BILLING_TYPES = ['hourly'] as const;

/** Every machine state the contract names. The real API may send others; schemas pass them through. */
export const MACHINE_STATES = [
  'off',
  'starting',
  'stopping',
  'restarting',
  'serviceready',
  'ready',
  'upgrading',
  'provisioning',
] as const;
export type MachineState = (typeof MACHINE_STATES)[number];

/**
 * The states Paperspace bills compute time in: from the start request until the machine is off again
 * (stopping included, provisioning not: a machine being created is not running yet). v1 has no meter,
 * so its usage estimate counts these; domain/machine-states.ts builds the bot's "running" on them.
 */
export const BILLED_STATES = [
  'starting',
  'restarting',
  'upgrading',
  'serviceready',
  'ready',
  'stopping',
] as const satisfies readonly MachineState[];

/** The states a caller can wait for. */
export const WAITABLE_STATES = ['off', 'serviceready', 'ready'] as const;
export type WaitableState = (typeof WAITABLE_STATES)[number];

export const AUTO_SNAPSHOT_FREQUENCIES = ['hour', 'day', 'week'] as const;
export type AutoSnapshotFrequency = (typeof AUTO_SNAPSHOT_FREQUENCIES)[number];

export const RESTORE_POINT_FREQUENCIES = ['shutdown'] as const;

/**
 * The disk sizes (GB) each dialect lists for a machine. The contract types the size as any number and
 * Paperspace refuses the others only after the request; the sizes are those Paperspace's console
 * offered for a machine's disk, and the only ones it takes. v1's OpenAPI types `diskSize` as `anyOf`
 * its listed sizes (50 to 2000 as before, plus 4000, 8000, 12000 and 16000) or any number above 0
 * (`minimum: 0, exclusiveMinimum: true`), so on v1 the list is what the form offers, not a limit
 * (acceptsDiskSize). The create validator, the form's hint and the emulator's refusal all read it.
 */
export const MACHINE_DISK_SIZES_GB = {
  contract: [50, 100, 250, 500, 1000, 2000],
  v1: [50, 100, 250, 500, 1000, 2000, 4000, 8000, 12000, 16000],
} as const satisfies Record<Dialect, readonly number[]>;
export type MachineDiskSizeGb = (typeof MACHINE_DISK_SIZES_GB)[Dialect][number];

/**
 * Whether the dialect creates a disk of `sizeGb`: one of the contract's listed sizes; on v1 any whole
 * size above 0. v1 would take a fraction of a GB too, but the bot asks for whole GB (the form's
 * number field, the workflow step), as no one means a disk of 75.5 GB.
 */
export function acceptsDiskSize(dialect: Dialect, sizeGb: number): boolean {
  if (!Number.isInteger(sizeGb) || sizeGb < 1) return false;
  return dialect === 'v1' || (MACHINE_DISK_SIZES_GB[dialect] as readonly number[]).includes(sizeGb);
}

/** The dialect's listed sizes: "50, 100, 250, 500, 1000 or 2000". */
export function diskSizesText(dialect: Dialect): string {
  const sizes = MACHINE_DISK_SIZES_GB[dialect];
  return `${sizes.slice(0, -1).join(', ')} or ${sizes.at(-1)}`;
}

/** Script data limit, counted in bytes of UTF-8. */
export const SCRIPT_MAX_BYTES = 16 * 1024;

/** Default and maximum page size of getMachines. */
export const MACHINE_LIST_PAGE_SIZE = 1000;

/** A resource delegation's access token lives this long after creation. */
export const DELEGATION_LIFETIME_MS = 4 * 60 * 60 * 1000;

export function isCpuMachineType(type: string): type is CpuMachineType {
  return (CPU_MACHINE_TYPES as readonly string[]).includes(type);
}

export function isGridMachineType(type: string): type is GridMachineType {
  return (GRID_MACHINE_TYPES as readonly string[]).includes(type);
}

export function isDedicatedGpuMachineType(type: string): type is DedicatedGpuMachineType {
  return (DEDICATED_GPU_MACHINE_TYPES as readonly string[]).includes(type);
}
