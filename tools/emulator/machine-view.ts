// The JSON shapes the API answers with, built from records. Times become ISO 8601 UTC strings here.
import type {
  EventRecord,
  MachineRecord,
  NetworkRecord,
  ScriptRecord,
  TemplateRecord,
  UserRecord,
} from './records.js';
import type { World } from './world.js';

export const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

function eventView(event: EventRecord) {
  return {
    name: event.name,
    state: event.state,
    errorMsg: event.errorMsg,
    handle: event.handle,
    dtModified: iso(event.dtModified),
    dtFinished: isoOrNull(event.dtFinished),
    dtCreated: iso(event.dtCreated),
  };
}

export type MachineShape = 'list' | 'show' | 'plain';

/**
 * `list` adds internalId (as getMachines does), `show` adds events (getMachinePublic), `plain` has
 * neither (what mutations answer). The real API also sends userId and teamId; so do we.
 */
export function machineView(machine: MachineRecord, shape: MachineShape) {
  return {
    id: machine.id,
    name: machine.name,
    os: machine.os,
    ram: machine.ram,
    cpus: machine.cpus,
    gpu: machine.gpu,
    storageTotal: machine.storageTotal,
    storageUsed: machine.storageUsed,
    machineType: machine.machineType,
    usageRate: `${machine.machineType} hourly`,
    shutdownTimeoutInHours: machine.shutdownTimeoutInHours,
    shutdownTimeoutForces: machine.shutdownTimeoutForces,
    performAutoSnapshot: machine.performAutoSnapshot,
    autoSnapshotFrequency: machine.autoSnapshotFrequency,
    autoSnapshotSaveCount: machine.autoSnapshotSaveCount,
    dynamicPublicIp: machine.dynamicPublicIp,
    agentType: machine.agentType,
    dtCreated: iso(machine.dtCreated),
    state: machine.state,
    updatesPending: machine.updatesPending,
    networkId: machine.networkId,
    privateIpAddress: machine.privateIpAddress,
    publicIpAddress: machine.publicIpAddress,
    region: machine.region,
    scriptId: machine.scriptId,
    dtLastRun: isoOrNull(machine.dtLastRun),
    restorePointSnapshotId: machine.restorePointSnapshotId,
    restorePointFrequency: machine.restorePointFrequency,
    userId: machine.ownerId,
    teamId: machine.accountId,
    ...(shape === 'list' ? { internalId: machine.internalId } : {}),
    ...(shape === 'show' ? { events: machine.events.map(eventView) } : {}),
  };
}

export function scriptView(script: ScriptRecord) {
  return {
    id: script.id,
    ownerType: script.ownerType,
    ownerId: script.ownerId,
    name: script.name,
    description: script.description,
    dtCreated: iso(script.dtCreated),
    isEnabled: script.isEnabled,
    runOnce: script.runOnce,
  };
}

export function userView(user: UserRecord) {
  return {
    id: user.id,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    dtCreated: iso(user.dtCreated),
    teamId: user.accountId,
  };
}

export function templateView(template: TemplateRecord, world: World) {
  const account = template.accountId === null ? undefined : world.accounts.get(template.accountId);
  const individualOwner =
    account?.kind === 'individual'
      ? [...world.users.values()].find((user) => user.accountId === account.id)
      : undefined;
  return {
    id: template.id,
    name: template.name,
    label: template.label,
    os: template.os,
    dtCreated: iso(template.dtCreated),
    teamId: template.accountId,
    userId: individualOwner?.id ?? null,
    region: template.region,
  };
}

export function networkView(network: NetworkRecord) {
  return {
    id: network.id,
    name: network.name,
    region: network.region,
    dtCreated: iso(network.dtCreated),
    network: network.network,
    netmask: network.netmask,
    teamId: network.accountId,
  };
}
