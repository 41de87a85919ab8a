// Builds machine records. The create route provisions a machine from scratch; seeds and the test
// controls place machines that already exist in a given state. Both go through here so a machine
// looks the same whichever way it came into being.
import type { MachineState, Region } from '../../src/paperspace/constants.js';
import { type EmulatorMachineType, GIB, MACHINE_SPECS } from './catalog.js';
import {
  bootedStateOf,
  newEvent,
  requestCreate,
  requestRestart,
  requestStart,
  requestStop,
  requestUpgrade,
  shutDownForDestroy,
} from './lifecycle.js';
import { allocateAddress, releaseAddress } from './network-space.js';
import type { AgentType, MachineRecord, NetworkRecord, TemplateRecord, UserRecord } from './records.js';
import type { EmulatorCore } from './world.js';

export interface MachineBlueprint {
  readonly id?: string;
  readonly name: string;
  readonly owner: UserRecord;
  readonly template: TemplateRecord;
  readonly machineType: EmulatorMachineType;
  readonly region: Region;
  readonly sizeGb: number;
  /** The caller checked that it has a free address. */
  readonly network: NetworkRecord | null;
  readonly scriptId?: string | null;
  readonly dynamicPublicIp?: boolean;
  readonly assignPublicIp?: boolean;
  readonly takeInitialSnapshot?: boolean;
  readonly markSnapshotAsRestorePoint?: boolean;
  readonly restorePointFrequency?: string | null;
  readonly updatesPending?: boolean;
  readonly dtCreated?: number;
}

/** Storage the template's operating system occupies on a fresh disk. */
const TEMPLATE_USED_GIB = { windows: 24, ubuntu: 8 } as const;

function newMachineRecord(
  core: EmulatorCore,
  blueprint: MachineBlueprint,
  state: MachineState,
): MachineRecord {
  const dtCreated = blueprint.dtCreated ?? core.now();
  const privateIpAddress = blueprint.network ? allocateAddress(blueprint.network) : null;
  const id = blueprint.id ?? core.ids.next('ps');
  return {
    id,
    internalId: core.ids.nextInternalId(),
    name: blueprint.name,
    ownerId: blueprint.owner.id,
    accountId: blueprint.owner.accountId,
    templateId: blueprint.template.id,
    machineType: blueprint.machineType,
    region: blueprint.region,
    agentType: blueprint.template.agentType,
    sizeGb: blueprint.sizeGb,
    os: null,
    ram: null,
    cpus: MACHINE_SPECS[blueprint.machineType].cpus,
    gpu: null,
    storageTotal: null,
    storageUsed: null,
    shutdownTimeoutInHours: blueprint.template.family === 'windows' ? 1 : null,
    shutdownTimeoutForces: false,
    performAutoSnapshot: false,
    autoSnapshotFrequency: null,
    autoSnapshotSaveCount: null,
    dynamicPublicIp: blueprint.dynamicPublicIp ?? false,
    updatesPending: blueprint.updatesPending ?? false,
    networkId: blueprint.network?.id ?? null,
    privateIpAddress,
    publicIpAddress: null,
    scriptId: blueprint.scriptId ?? null,
    dtLastRun: null,
    restorePointSnapshotId: null,
    restorePointFrequency: null,
    dtCreated,
    state,
    stateLog: [{ state, at: dtCreated }],
    events: [],
    queue: [],
    accessorIds: core.world.machines.accessorSet(id),
    pendingFailure: null,
  };
}

/** What provisioning fills in: hardware details, the static IP, the initial restore point. */
function provisionedBy(core: EmulatorCore, blueprint: MachineBlueprint) {
  return (machine: MachineRecord) => {
    const spec = MACHINE_SPECS[blueprint.machineType];
    machine.os = blueprint.template.os;
    machine.ram = String(Math.round(spec.ramGiB * GIB));
    machine.gpu = spec.gpu;
    // Whole bytes, whatever the size: v1 creates disks of a fraction of a GB too.
    machine.storageTotal = String(Math.round(blueprint.sizeGb * GIB));
    machine.storageUsed = String(
      Math.round(Math.min(blueprint.sizeGb, TEMPLATE_USED_GIB[blueprint.template.family]) * GIB),
    );
    if (blueprint.assignPublicIp) machine.publicIpAddress = core.ids.nextPublicIp();
    if (blueprint.takeInitialSnapshot && blueprint.markSnapshotAsRestorePoint) {
      machine.restorePointSnapshotId = core.ids.next('ss');
      machine.restorePointFrequency = blueprint.restorePointFrequency ?? null;
    }
  };
}

/**
 * A machine created through the API: `provisioning`, then started unless startOnCreate is false. With
 * a failure, provisioning ends in `error` and the queued start is cancelled.
 */
export function provisionMachine(
  core: EmulatorCore,
  blueprint: MachineBlueprint,
  startOnCreate: boolean,
  failure: string | null = null,
): MachineRecord {
  const machine = newMachineRecord(core, blueprint, 'provisioning');
  machine.pendingFailure = failure;
  core.world.machines.set(machine.id, machine);
  requestCreate(core, machine, startOnCreate, provisionedBy(core, blueprint));
  return machine;
}

/** The state a machine rests in before the operation that a seeded transitional state belongs to. */
function restingStateBefore(state: MachineState, agentType: AgentType): MachineState {
  switch (state) {
    case 'starting':
    case 'upgrading':
      return 'off';
    case 'stopping':
    case 'restarting':
      return bootedStateOf(agentType);
    default:
      return state;
  }
}

/**
 * A machine that already exists (seeds, bulk test data). Resting states are taken as they are, with a
 * finished create (and start) in the history; a transitional state starts the operation it belongs
 * to, so the machine completes it after one transition.
 */
export function placeMachine(
  core: EmulatorCore,
  blueprint: MachineBlueprint,
  state: MachineState,
): MachineRecord {
  if (state === 'provisioning') return provisionMachine(core, blueprint, true);
  const restingState = restingStateBefore(state, blueprint.template.agentType);
  const machine = newMachineRecord(core, blueprint, restingState);
  provisionedBy(core, blueprint)(machine);
  const created = machine.dtCreated;
  machine.events.unshift(newEvent('create', 'done', created));
  if (restingState !== 'off') {
    machine.events.unshift(newEvent('start', 'done', created));
    if (machine.dynamicPublicIp) machine.publicIpAddress = core.ids.nextPublicIp();
  }
  core.world.machines.set(machine.id, machine);
  if (state === 'starting') requestStart(core, machine);
  if (state === 'stopping') requestStop(core, machine);
  if (state === 'restarting') requestRestart(core, machine);
  if (state === 'upgrading') requestUpgrade(core, machine);
  return machine;
}

/**
 * Destroys a machine, whichever dialect asked: it is shut down at once (billing stops), its network
 * address is released, and it disappears; its events stay readable by id.
 */
export function removeMachine(core: EmulatorCore, machine: MachineRecord): void {
  shutDownForDestroy(machine, core.now());
  const network = machine.networkId === null ? undefined : core.world.networks.get(machine.networkId);
  if (network && machine.privateIpAddress !== null) releaseAddress(network, machine.privateIpAddress);
  for (const event of machine.events) {
    core.world.retiredEvents.set(event.handle, {
      machineId: machine.id,
      accountId: machine.accountId,
      event,
    });
  }
  core.world.machines.delete(machine.id);
}
