// The emulator's in-memory records. They hold times as epoch milliseconds and are turned into the
// API's JSON shapes only at the edge (machine-view.ts and the route files).
import type { AutoSnapshotFrequency, MachineState, Region } from '../../src/paperspace/constants.js';
import type { EmulatorMachineType, TemplateFamily } from './catalog.js';

type AccountKind = 'team' | 'individual';

/** A team, or the personal account of an individual user (whose only user is its administrator). */
export interface AccountRecord {
  readonly id: string;
  readonly name: string;
  readonly kind: AccountKind;
  readonly dtCreated: number;
}

export type Role = 'admin' | 'member';

export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly firstname: string;
  readonly lastname: string;
  readonly accountId: string;
  readonly role: Role;
  /** Null for users created through machine creation: they have not signed in yet. */
  readonly apiKey: string | null;
  readonly accessToken: string | null;
  readonly dtCreated: number;
}

export type AgentType = 'LinuxHeadless' | 'LinuxDesktop' | 'WindowsDesktop';

export interface TemplateRecord {
  readonly id: string;
  readonly name: string;
  readonly label: string | null;
  readonly os: string;
  readonly family: TemplateFamily;
  readonly agentType: AgentType;
  /** Null for stock templates, which every account sees. */
  readonly accountId: string | null;
  /** Null when the template can be used in every region. */
  readonly region: Region | null;
  /** An account's template was made from a machine (which may since be gone); null for stock ones. */
  readonly parentMachine: { readonly id: string; readonly region: Region } | null;
  readonly dtCreated: number;
}

export interface NetworkRecord {
  readonly id: string;
  /** Renamed only through v1. */
  name: string;
  readonly region: Region;
  readonly network: string;
  readonly netmask: string;
  readonly accountId: string;
  readonly dtCreated: number;
  /** Host offsets (from the network address) handed to machines and shared drives. */
  readonly allocated: Set<number>;
}

// `deactivate` is recorded only when a machine is deleted through v1, whose delete answers an event.
export type EventName = 'create' | 'start' | 'stop' | 'restart' | 'upgrade' | 'deactivate';
type EventState = 'new' | 'in progress' | 'done' | 'error';

export interface EventRecord {
  readonly name: EventName;
  state: EventState;
  errorMsg: string;
  readonly handle: string;
  readonly dtCreated: number;
  dtModified: number;
  /** When the operation began to run (v1 shows it); null while queued. */
  dtStarted: number | null;
  dtFinished: number | null;
  /** Ended in `error` only because an earlier operation failed; v1 reports it as `cancelled`. */
  cancelled: boolean;
}

/** One timed step of an operation: the machine shows `state` for `durationMs`. */
export interface Phase {
  readonly state: MachineState;
  readonly durationMs: number;
}

export interface OperationRecord {
  readonly event: EventRecord;
  readonly phases: readonly Phase[];
  readonly finalState: MachineState;
  /** Set when a fault was injected: the operation ends in `error` and the machine turns off. */
  failure: string | null;
  phaseIndex: number;
  phaseStartedAt: number;
  readonly onComplete?: (machine: MachineRecord, at: number) => void;
}

interface StateChange {
  readonly state: MachineState;
  readonly at: number;
}

export interface MachineRecord {
  readonly id: string;
  readonly internalId: number;
  name: string;
  readonly ownerId: string;
  readonly accountId: string;
  readonly templateId: string;
  readonly machineType: EmulatorMachineType;
  readonly region: Region;
  readonly agentType: AgentType;
  readonly sizeGb: number;
  os: string | null;
  ram: string | null;
  readonly cpus: number;
  gpu: string | null;
  storageTotal: string | null;
  storageUsed: string | null;
  shutdownTimeoutInHours: number | null;
  shutdownTimeoutForces: boolean;
  performAutoSnapshot: boolean;
  autoSnapshotFrequency: AutoSnapshotFrequency | null;
  autoSnapshotSaveCount: number | null;
  dynamicPublicIp: boolean;
  updatesPending: boolean;
  readonly networkId: string | null;
  readonly privateIpAddress: string | null;
  publicIpAddress: string | null;
  scriptId: string | null;
  dtLastRun: number | null;
  restorePointSnapshotId: string | null;
  restorePointFrequency: string | null;
  readonly dtCreated: number;
  /** The state as of the last settle; read it only after settleMachine. */
  state: MachineState;
  /** Every state change with its time, oldest first: utilization is computed from it. */
  readonly stateLog: StateChange[];
  /** Newest first. */
  readonly events: EventRecord[];
  /** The active operation first, then the ones requested while it runs. */
  queue: OperationRecord[];
  readonly accessorIds: Set<string>;
  /** A failure message waiting for the machine's next operation (fault injection). */
  pendingFailure: string | null;
}

type ScriptOwnerType = 'user' | 'team';

/** Name, text and flags change only through v1, where scripts can be edited. */
export interface ScriptRecord {
  readonly id: string;
  name: string;
  readonly description: string | null;
  text: string;
  readonly ownerType: ScriptOwnerType;
  readonly ownerId: string;
  readonly accountId: string;
  readonly creatorId: string;
  isEnabled: boolean;
  runOnce: boolean;
  readonly dtCreated: number;
}

export interface DriveRecord {
  readonly id: string;
  /** Renamed only through v1. */
  name: string;
  readonly sizeGiB: number;
  readonly region: Region;
  readonly networkId: string;
  readonly accountId: string;
  readonly ipAddress: string;
  readonly username: string;
  readonly password: string;
  readonly dtCreated: number;
}

export interface DelegationRecord {
  readonly id: number;
  readonly machineIds: readonly string[];
  /** Identifies the delegation's access token; the emulator accepts this value as the token itself. */
  readonly accessTokenId: string;
  readonly creatorId: string;
  readonly dtCreated: number;
}
