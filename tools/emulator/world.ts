// The emulator's state: every record by id, plus the id sources and the settings that every route
// needs (clock, transition length). One World per running emulator; nothing lives at module level.
import { randomBytes } from 'node:crypto';
import { isDedicatedGpuMachineType, type Region } from '../../src/paperspace/constants.js';
import type { Clock } from './clock.js';
import type {
  AccountRecord,
  DelegationRecord,
  DriveRecord,
  EventRecord,
  NetworkRecord,
  ScriptRecord,
  TemplateRecord,
} from './records.js';
import { MachineTable, UserTable } from './world-index.js';

export interface World {
  readonly accounts: Map<string, AccountRecord>;
  readonly users: UserTable;
  readonly templates: Map<string, TemplateRecord>;
  readonly networks: Map<string, NetworkRecord>;
  /** Insertion order is creation order, which is the order lists answer in. */
  readonly machines: MachineTable;
  readonly scripts: Map<string, ScriptRecord>;
  readonly drives: Map<string, DriveRecord>;
  readonly delegations: Map<number, DelegationRecord>;
  /** `region|machineType` -> available; a missing key: see isAvailable. */
  readonly availability: Map<string, boolean>;
  /** Failure messages for the next machines created through the API (fault injection), oldest first. */
  readonly createFailures: string[];
  /** Events of deleted machines by id (handle): a v1 client may still follow the delete's event. */
  readonly retiredEvents: Map<
    string,
    { readonly machineId: string; readonly accountId: string; readonly event: EventRecord }
  >;
}

export function createWorld(): World {
  return {
    accounts: new Map(),
    users: new UserTable(),
    templates: new Map(),
    networks: new Map(),
    machines: new MachineTable(),
    scripts: new Map(),
    drives: new Map(),
    delegations: new Map(),
    availability: new Map(),
    createFailures: [],
    retiredEvents: new Map(),
  };
}

export function availabilityKey(region: Region, machineType: string): string {
  return `${region}|${machineType}`;
}

/**
 * Whether a type can be requested in a region now, the one rule for create and both availability
 * routes. Dedicated GPU types are scarce: only the table says they are there. Every other type (CPU,
 * GRID, v1's own) is stocked everywhere unless a test or seed says otherwise.
 */
export function isAvailable(world: World, region: Region, machineType: string): boolean {
  return (
    world.availability.get(availabilityKey(region, machineType)) ?? !isDedicatedGpuMachineType(machineType)
  );
}

export interface IdSource {
  /** A fresh id such as `ps00000k`, never equal to an id already in the world (seeded ids included). */
  next(prefix: string): string;
  nextInternalId(): number;
  nextDelegationId(): number;
  nextPublicIp(): string;
  /** An unguessable value for credentials (delegation tokens, drive passwords). */
  secret(prefix: string): string;
}

export function createIdSource(world: World): IdSource {
  let counter = 0;
  let internalId = 1000;
  let delegationId = 0;
  let publicIp = 0;
  const taken = (id: string) =>
    world.accounts.has(id) ||
    world.users.has(id) ||
    world.templates.has(id) ||
    world.networks.has(id) ||
    world.machines.has(id) ||
    world.scripts.has(id) ||
    world.drives.has(id);
  return {
    next(prefix) {
      for (;;) {
        counter += 1;
        const id = `${prefix}${counter.toString(36).padStart(6, '0')}`;
        if (!taken(id)) return id;
      }
    },
    nextInternalId: () => {
      internalId += 1;
      return internalId;
    },
    nextDelegationId: () => {
      delegationId += 1;
      return delegationId;
    },
    nextPublicIp() {
      publicIp += 1;
      // 203.0.113.0/24 and 198.51.100.0/24 are documentation ranges: they can never reach a real host.
      const block = publicIp <= 254 ? '203.0.113' : '198.51.100';
      return `${block}.${((publicIp - 1) % 254) + 1}`;
    },
    secret: (prefix) => `${prefix}${randomBytes(18).toString('base64url')}`,
  };
}

/** What every route and operation works with. */
export interface EmulatorCore {
  readonly world: World;
  readonly now: Clock;
  /** How long each timed state (provisioning, starting, stopping, restarting, upgrading) lasts. */
  readonly transitionMs: number;
  readonly ids: IdSource;
}
