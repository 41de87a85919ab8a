// The resources a PaperspaceClient offers, whichever API answers: the contract's dialect (legacy/)
// and v1's (v1/) each implement these, so features hold one client and read `capabilities` where
// the two differ.
import type { WaitableState } from './constants.js';
import type { Capabilities, Dialect } from './dialect.js';
import type { RequestOptions } from './http.js';
import type { CreateDelegationParams } from './request-params/delegation-params.js';
import type {
  NetworkListFilters,
  TemplateListFilters,
  UserListFilters,
} from './request-params/list-filters.js';
import type { CreateMachineParams, TemplateInfo } from './request-params/machine-create-params.js';
import type {
  AvailabilityParams,
  DestroyMachineParams,
  MachineFilters,
  MachineListFilters,
  SetMachineAccessParams,
  UpdateMachineParams,
} from './request-params/machine-params.js';
import type { CreateScriptParams, ScriptListFilters } from './request-params/script-params.js';
import type { CreateSharedDriveParams, SharedDriveListParams } from './request-params/shared-drive-params.js';
import type {
  Availability,
  Machine,
  MachineEvent,
  MachineUtilization,
  MachineWithEvents,
  Network,
  ResourceDelegation,
  Script,
  SharedDrive,
  Template,
  User,
} from './schemas.js';
import type { WaitForStateOptions } from './wait-for-state.js';

interface CreateMachineOptions extends RequestOptions {
  /** The template being created from, when known: enables the contract's Windows/Ubuntu type rules. */
  template?: TemplateInfo;
}

/** What a start, stop or restart answered: the event that follows it, where the API names one (v1). */
export interface PowerReceipt {
  /** Null when the API names none (the contract), or nothing new was started (already under way). */
  eventId: string | null;
}

export interface MachinesResource {
  create(params: CreateMachineParams, options?: CreateMachineOptions): Promise<Machine>;
  start(machineId: string, options?: RequestOptions): Promise<PowerReceipt>;
  stop(machineId: string, options?: RequestOptions): Promise<PowerReceipt>;
  restart(machineId: string, options?: RequestOptions): Promise<PowerReceipt>;
  /**
   * One machine event, as it stands now (v1's `GET /machine-events/{id}`): how an operation is going,
   * and its `errorMsg` if it failed. The contract has no such call (`capabilities.followEvents`).
   */
  event(eventId: string, options?: RequestOptions): Promise<MachineEvent>;
  destroy(machineId: string, params?: DestroyMachineParams, options?: RequestOptions): Promise<void>;
  update(machineId: string, params: UpdateMachineParams, options?: RequestOptions): Promise<void>;
  list(filters?: MachineListFilters, options?: RequestOptions): Promise<Machine[]>;
  /** Every machine matching `filters`, fetched in pages of 1000. */
  listAll(filters?: MachineFilters, options?: RequestOptions): AsyncIterable<Machine>;
  show(machineId: string, options?: RequestOptions): Promise<MachineWithEvents>;
  setAccess(machineId: string, params: SetMachineAccessParams, options?: RequestOptions): Promise<void>;
  /**
   * The Paperspace user ids given explicit access to the machine (v1's accessors). The contract's API
   * cannot list them: its dialect throws, and `capabilities.listAccessors` says so beforehand.
   */
  accessors(machineId: string, options?: RequestOptions): Promise<string[]>;
  utilization(machineId: string, billingMonth: string, options?: RequestOptions): Promise<MachineUtilization>;
  availability(
    region: AvailabilityParams['region'],
    machineType: AvailabilityParams['machineType'],
    options?: RequestOptions,
  ): Promise<Availability>;
  waitForState(
    machineId: string,
    state: WaitableState,
    options: WaitForStateOptions,
  ): Promise<MachineWithEvents>;
}

// Who an API key belongs to. v1 says so (`GET /auth/session`); the contract has no such call, so its
// dialect answers undefined and the login flow identifies the person another way.
export interface Identity {
  userId: string;
  email: string;
  teamId: string;
  /** Administers (or owns) the key's team. */
  isAdmin: boolean;
}

export interface AccountResource {
  /** Who the key belongs to; undefined when the dialect cannot tell (the contract). */
  whoAmI(options?: RequestOptions): Promise<Identity | undefined>;
}

export interface ScriptsResource {
  /**
   * `scriptFile` is a path on this machine: the client reads it and sends its content as
   * `scriptText` (see script-to-create.ts). Either `scriptText` or `scriptFile` is required, within 16 KB.
   */
  create(params: CreateScriptParams, options?: RequestOptions): Promise<Script>;
  destroy(scriptId: string, options?: RequestOptions): Promise<void>;
  list(filters?: ScriptListFilters, options?: RequestOptions): Promise<Script[]>;
  /** The script with the machines it is assigned to, without its text. */
  show(scriptId: string, options?: RequestOptions): Promise<Script>;
  text(scriptId: string, options?: RequestOptions): Promise<string>;
}

export interface SharedDrivesResource {
  list(params?: SharedDriveListParams, options?: RequestOptions): Promise<SharedDrive[]>;
  /** Returns the new drive's id and name (the fields the contract's mutation selects). */
  create(params: CreateSharedDriveParams, options?: RequestOptions): Promise<SharedDrive>;
  delete(sharedDriveId: string, options?: RequestOptions): Promise<{ id: string }>;
}

/** Resource delegations: a 4-hour access token for chosen machines, used to share them. */
export interface DelegationsResource {
  create(params: CreateDelegationParams, options?: RequestOptions): Promise<ResourceDelegation>;
}

/** A resource offered only as a filtered list (templates, users, networks). */
export interface ListResource<Filters, Item> {
  list(filters?: Filters, options?: RequestOptions): Promise<Item[]>;
}

/** Templates: the images new machines are created from. */
export type TemplatesResource = ListResource<TemplateListFilters, Template>;
/** Users of the caller's account or team. */
export type UsersResource = ListResource<UserListFilters, User>;
/** Private networks machines and shared drives are created on. */
export type NetworksResource = ListResource<NetworkListFilters, Network>;

/** One person's client: every resource, speaking whichever API its base URL names (client.ts builds it). */
export type PaperspaceClient = {
  /** Which API the base URL speaks; for logs and tests. Features read `capabilities` instead. */
  dialect: Dialect;
  /** What this API can and cannot do, for the features that must say so. */
  capabilities: Capabilities;
  account: AccountResource;
  machines: MachinesResource;
  scripts: ScriptsResource;
  templates: TemplatesResource;
  users: UsersResource;
  networks: NetworksResource;
  delegations: DelegationsResource;
  sharedDrives: SharedDrivesResource;
};
