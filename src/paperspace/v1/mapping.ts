// v1's wire shapes mapped into the bot's one domain model (schemas.ts, shaped by the contract), so no
// feature needs to know which dialect answered. Where v1 says more than the contract (accelerators,
// publicIpType, storageRate), the extra field travels alongside; where it says less (scriptId,
// dtLastRun), the domain's field is null, which every view already shows as "not known".
import { REGIONS } from '../constants.js';
import type { Machine, MachineEvent, Network, Script, SharedDrive, Template, User } from '../schemas.js';
import type {
  V1Event,
  V1Machine,
  V1Network,
  V1Script,
  V1SharedDrive,
  V1TeamMember,
  V1Template,
} from './wire.js';

/** v1 names regions by id (`ny2`); the domain keeps the contract's names ("East Coast (NY2)"). */
function regionFromV1(region: string | null | undefined): string | null {
  if (!region) return null;
  const wanted = `(${region.toUpperCase()})`;
  return REGIONS.find((name) => name.endsWith(wanted)) ?? region;
}

/** "East Coast (NY2)" -> "ny2"; a name that is already an id passes as it is. */
export function regionToV1(region: string): string {
  const id = /\(([A-Za-z0-9]+)\)$/.exec(region)?.[1];
  return id ? id.toLowerCase() : region;
}

/** The contract's snapshot vocabulary (hour, day, week) and v1's (hourly, daily, weekly, monthly). */
const SNAPSHOT_TO_V1: Record<string, string> = { hour: 'hourly', day: 'daily', week: 'weekly' };
const SNAPSHOT_FROM_V1: Record<string, string> = { hourly: 'hour', daily: 'day', weekly: 'week' };

export const snapshotFrequencyToV1 = (value: string) => SNAPSHOT_TO_V1[value] ?? value;
const snapshotFrequencyFromV1 = (value: string | null | undefined) =>
  value ? (SNAPSHOT_FROM_V1[value] ?? value) : null;

/** "Quadro P4000", "2 × A100-80G": v1 lists accelerators where the contract had one gpu string. */
function gpuOf(machine: V1Machine): string | null {
  const names = (machine.accelerators ?? []).map((accelerator) =>
    accelerator.count > 1 ? `${accelerator.count} × ${accelerator.name}` : accelerator.name,
  );
  return names.length > 0 ? names.join(', ') : null;
}

const text = (value: number | null | undefined) =>
  value === null || value === undefined ? null : String(value);

/**
 * `2.3` as `2.30`: whole cents with two decimals, as every price the bot shows (slack/block-kit/format.ts
 * formatRate); a finer rate keeps its own precision (`0.0045`).
 */
function dollarsText(rate: number | string): string {
  const value = Number(rate);
  if (!Number.isFinite(value)) return String(rate);
  return Number.isInteger(Math.round(value * 1e6) / 1e4) ? value.toFixed(2) : String(value);
}

export function machineFromV1(machine: V1Machine): Machine {
  const { ram, storageTotal, storageUsed, usageRate, ...rest } = machine;
  const publicIpType = machine.publicIpType ?? undefined;
  return {
    ...rest,
    os: machine.os ?? null,
    ram: text(ram),
    gpu: gpuOf(machine),
    storageTotal: text(storageTotal),
    storageUsed: text(storageUsed),
    // The domain's usageRate is the text a card shows under "Billing"; v1's is dollars per hour (the
    // OpenAPI names no unit; Paperspace prices machines by the hour: docs/units.md).
    usageRate: usageRate === null || usageRate === undefined ? 'not known' : `$${dollarsText(usageRate)} / h`,
    shutdownTimeoutInHours: machine.autoShutdownEnabled ? (machine.autoShutdownTimeout ?? null) : null,
    shutdownTimeoutForces: machine.autoShutdownForce ?? false,
    performAutoSnapshot: machine.autoSnapshotEnabled ?? false,
    autoSnapshotFrequency: snapshotFrequencyFromV1(machine.autoSnapshotFrequency),
    autoSnapshotSaveCount: machine.autoSnapshotSaveCount ?? null,
    dynamicPublicIp: publicIpType === undefined ? null : publicIpType === 'dynamic',
    updatesPending: machine.updatesPending ?? false,
    networkId: machine.networkId ?? null,
    privateIpAddress: machine.privateIp ?? null,
    publicIpAddress: machine.publicIp ?? null,
    region: regionFromV1(machine.region),
    scriptId: null,
    dtLastRun: null,
  };
}

export function eventFromV1(event: V1Event): MachineEvent {
  return {
    ...event,
    handle: event.id,
    errorMsg: event.error ?? null,
    dtModified: event.dtFinished ?? event.dtStarted ?? null,
    dtFinished: event.dtFinished ?? null,
  };
}

export function scriptFromV1(script: V1Script, teamId: string): Script {
  return {
    ...script,
    ownerType: 'team',
    ownerId: teamId,
    description: script.description ?? null,
    runOnce: script.isRunOnce,
    // The contract's element shape, so the catalog names each machine the same way in both dialects.
    machines: (script.assignedMachineIds ?? []).map((machineId) => ({ machineId, dtLastRun: null })),
  };
}

export function templateFromV1(template: V1Template): Template {
  return {
    ...template,
    // v1's name is what a person picked for the template; the contract keeps that in label.
    label: template.name,
    os: template.operatingSystemLabel ?? template.agentType ?? '',
    region: regionFromV1(template.region),
    // v1's catalog is per template: the types it is available on, in place of the contract's list.
    ...(template.availableMachineTypes == null
      ? {}
      : {
          machineTypes: template.availableMachineTypes
            .filter((offer) => offer.isAvailable)
            .map((offer) => offer.machineTypeLabel),
        }),
  };
}

export function userFromV1(member: V1TeamMember, teamId: string): User {
  return {
    id: member.user.id,
    email: member.user.email,
    firstname: member.user.firstName ?? '',
    lastname: member.user.lastName ?? '',
    dtCreated: member.dtConfirmed ?? '',
    teamId,
    isAdmin: member.isAdmin,
    isOwner: member.isOwner,
  };
}

export function networkFromV1(network: V1Network, teamId: string): Network {
  return { ...network, region: regionFromV1(network.region) ?? network.region, teamId };
}

const GIB = 1024 ** 3;

/**
 * A drive's size in bytes, as the domain keeps it. v1's OpenAPI creates a drive with its size "in
 * gigabytes" and reads it back as an int64 "size" with no unit (docs/units.md). A byte count under
 * 1 GiB cannot be a shared drive, so a figure that small is the gigabytes it was created with.
 */
function driveBytes(size: number): number {
  return size < GIB ? size * GIB : size;
}

export function sharedDriveFromV1(drive: V1SharedDrive): SharedDrive {
  const { region, mountPoint, size, username, password, ...rest } = drive;
  return {
    ...rest,
    ...(mountPoint ? { mountPoint } : {}),
    ...(size === null || size === undefined ? {} : { size: driveBytes(size) }),
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(region ? { region: { name: regionFromV1(region) ?? region } } : {}),
  };
}
