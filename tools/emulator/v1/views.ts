// The JSON shapes v1 answers with, built from the world's records: numbers where the contract has
// strings (ram, storage, rates), region ids, publicIpType and autoShutdown* instead of the contract's
// dynamicPublicIp and shutdownTimeout*, events with ids and their machine.
import {
  EMULATOR_MACHINE_TYPES,
  GIB,
  MACHINE_SPECS,
  offeredMachineTypes,
  STORAGE_SIZES_GB,
  storageMonthlyRate,
} from '../catalog.js';
import { iso } from '../machine-view.js';
import type {
  DriveRecord,
  EventRecord,
  MachineRecord,
  NetworkRecord,
  ScriptRecord,
  TemplateRecord,
  UserRecord,
} from '../records.js';
import type { World } from '../world.js';
import { regionId } from './regions.js';
import { snapshotFrequencyToV1 } from './snapshot-frequency.js';

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function publicIpType(machine: MachineRecord): 'static' | 'dynamic' | 'none' {
  if (machine.dynamicPublicIp) return 'dynamic';
  return machine.publicIpAddress === null ? 'none' : 'static';
}

/** The last time anything about the machine changed that the emulator records. */
function lastModified(machine: MachineRecord): number {
  const times = [machine.dtCreated, ...machine.stateLog.map((change) => change.at)];
  for (const event of machine.events) times.push(event.dtModified);
  return Math.max(...times);
}

export function machineV1View(machine: MachineRecord) {
  const spec = MACHINE_SPECS[machine.machineType];
  return {
    id: machine.id,
    name: machine.name,
    state: machine.state,
    machineType: machine.machineType,
    agentType: machine.agentType,
    // v1 knows the hardware from the machine type at once; the contract leaves it null until provisioned.
    os: machine.os ?? '',
    cpus: machine.cpus,
    ram: Math.round(spec.ramGiB * GIB),
    accelerators: spec.gpu === null ? [] : [{ name: spec.gpu, count: 1, memory: null }],
    storageTotal: Math.round(machine.sizeGb * GIB),
    storageUsed: machine.storageUsed === null ? 0 : Number(machine.storageUsed),
    usageRate: Number(spec.hourlyRate),
    storageRate: Number(storageMonthlyRate(machine.sizeGb)),
    region: regionId(machine.region),
    networkId: machine.networkId,
    privateIp: machine.privateIpAddress,
    publicIp: machine.publicIpAddress,
    publicIpType: publicIpType(machine),
    autoShutdownEnabled: machine.shutdownTimeoutInHours !== null,
    autoShutdownTimeout: machine.shutdownTimeoutInHours,
    autoShutdownForce: machine.shutdownTimeoutForces,
    autoSnapshotEnabled: machine.performAutoSnapshot,
    autoSnapshotFrequency: snapshotFrequencyToV1(machine.autoSnapshotFrequency),
    autoSnapshotSaveCount: machine.autoSnapshotSaveCount,
    restorePointEnabled: machine.restorePointFrequency !== null,
    restorePointFrequency: machine.restorePointFrequency,
    restorePointSnapshotId: machine.restorePointSnapshotId,
    updatesPending: machine.updatesPending,
    reservation: null,
    dtCreated: iso(machine.dtCreated),
    dtModified: iso(lastModified(machine)),
    dtDeleted: null,
  };
}

export function eventV1View(machineId: string, event: EventRecord) {
  return {
    id: event.handle,
    machineId,
    name: event.name,
    state: event.cancelled ? 'cancelled' : event.state,
    error: event.state === 'error' && event.errorMsg !== '' ? event.errorMsg : null,
    dtCreated: iso(event.dtCreated),
    dtStarted: isoOrNull(event.dtStarted),
    dtFinished: isoOrNull(event.dtFinished),
  };
}

/** v1 never answers a script's text: it can be replaced, not read back. */
export function scriptV1View(script: ScriptRecord, world: World) {
  return {
    id: script.id,
    name: script.name,
    description: script.description,
    isEnabled: script.isEnabled,
    isRunOnce: script.runOnce,
    assignedMachineIds: [...world.machines.values()]
      .filter((machine) => machine.scriptId === script.id)
      .map((machine) => machine.id),
    dtCreated: iso(script.dtCreated),
    dtDeleted: null,
  };
}

export function templateV1View(template: TemplateRecord) {
  return {
    id: template.id,
    name: template.label ?? template.name,
    agentType: template.agentType,
    operatingSystemLabel: template.os,
    defaultSizeGb: Math.min(...STORAGE_SIZES_GB),
    // The world's rule (offeredMachineTypes), over every type it builds, v1's own included.
    availableMachineTypes: EMULATOR_MACHINE_TYPES.map((machineTypeLabel) => ({
      machineTypeLabel,
      isAvailable: offeredMachineTypes(template).includes(machineTypeLabel),
    })),
    dtCreated: iso(template.dtCreated),
  };
}

/**
 * Custom templates also name the machine they were made from, and their region is that machine's
 * (v1 types both as strings). A custom template is always made from a machine: the seed sees to it.
 * A template the world restricts to one region answers that one.
 */
export function customTemplateV1View(template: TemplateRecord) {
  const parent = template.parentMachine;
  if (parent === null) throw new Error(`custom template ${template.id} names no machine it was made from`);
  return {
    ...templateV1View(template),
    region: regionId(template.region ?? parent.region),
    parentMachineId: parent.id,
    dtDeleted: null,
  };
}

export function networkV1View(network: NetworkRecord) {
  return {
    id: network.id,
    name: network.name,
    region: regionId(network.region),
    network: network.network,
    netmask: network.netmask,
    dtCreated: iso(network.dtCreated),
    dtDeleted: null,
  };
}

/** v1 answers the drive's credentials: they are what mounts it. */
export function driveV1View(drive: DriveRecord) {
  return {
    id: drive.id,
    name: drive.name,
    size: drive.sizeGiB * GIB,
    region: regionId(drive.region),
    networkId: drive.networkId,
    mountPoint: `\\\\${drive.ipAddress}\\${drive.id}`,
    username: drive.username,
    password: drive.password,
    dtCreated: iso(drive.dtCreated),
    dtDeleted: null,
  };
}

export function userV1View(user: UserRecord) {
  return { id: user.id, email: user.email, firstName: user.firstname, lastName: user.lastname };
}
