// The handle tests (and the CLI) use to look inside the emulator and steer it: find machines, add
// many at once, make a machine's next operation fail, change availability, fail upcoming requests.
import type { MachineState, Region } from '../../src/paperspace/constants.js';
import type { EmulatorMachineType } from './catalog.js';
import { delegationView } from './delegation-routes.js';
import type { Faults, ScheduledFailure } from './faults.js';
import { settleMachine } from './lifecycle.js';
import { placeMachine } from './machine-factory.js';
import { machineView, scriptView } from './machine-view.js';
import { freeAddressCount } from './network-space.js';
import type { MachineRecord, Role } from './records.js';
import { availabilityKey, type EmulatorCore } from './world.js';

export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly status: number;
  readonly at: number;
  /** The emulator user whose API key made the request; null without a key or for an unknown one. */
  readonly userId: string | null;
  /** The request's JSON body as parsed; undefined when it had none (or was not JSON). */
  readonly body: unknown;
  /** The body the emulator answered with, before serialisation. */
  readonly reply: unknown;
}

export interface EmulatorUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly role: Role;
  readonly accountId: string;
  readonly accountName: string;
  readonly accountKind: 'team' | 'individual';
  readonly apiKey: string | null;
  readonly accessToken: string | null;
}

interface BulkMachines {
  /** User id of the owner; the machines belong to the owner's account. */
  readonly owner: string;
  readonly state?: MachineState;
  readonly machineType?: EmulatorMachineType;
  readonly region?: Region;
  /** Defaults to the first stock Ubuntu template. */
  readonly templateId?: string;
  /** Machines are named `<namePrefix>-<n>`, n from 1. */
  readonly namePrefix?: string;
}

type MachineSnapshot = ReturnType<typeof machineView>;

export interface EmulatorControl {
  /** The emulator's clock. */
  now(): number;
  /** A machine as getMachinePublic would show it (with events), whoever owns it. */
  machine(machineId: string): MachineSnapshot | undefined;
  machineByName(name: string): MachineSnapshot | undefined;
  /** The user ids given explicit access to a machine (setMachineAccess grants, v1 accessors). */
  accessors(machineId: string): string[];
  machines(): MachineSnapshot[];
  /** Adds `count` existing machines in one go (for pagination and load tests); answers their ids. */
  addMachines(count: number, spec: BulkMachines): string[];
  /** The machine's next operation (create, start, stop, restart) ends in `error` and leaves it off. */
  failNextOperation(machineId: string, message?: string): void;
  /** The next machine created through the API fails provisioning: its create event ends in `error`. */
  failNextCreate(message?: string): void;
  setAvailability(region: Region, machineType: EmulatorMachineType, available: boolean): void;
  /** The next `count` requests (optionally only to one path) answer `status` (default 500). */
  failNextRequests(failure: ScheduledFailure): void;
  /**
   * Every request made with this API key hangs, unanswered, until releaseKey(): one account's
   * incident or one stuck connection, which must not hold up anyone else's work.
   */
  hangKey(apiKey: string): void;
  /** Answers the key's held requests and serves its later ones normally. */
  releaseKey(apiKey: string): void;
  /** Requests held unanswered by hangKey() right now. */
  heldRequests(): number;
  users(): EmulatorUser[];
  user(idOrEmail: string): EmulatorUser | undefined;
  scripts(): Array<ReturnType<typeof scriptView> & { text: string }>;
  delegations(): Array<ReturnType<typeof delegationView>>;
  drives(): Array<{
    id: string;
    name: string;
    sizeGiB: number;
    region: Region;
    networkId: string;
    teamId: string;
  }>;
  freeAddresses(networkId: string): number;
  /** Every request answered so far, oldest first. */
  requests(): readonly RequestLogEntry[];
}

export function createControl(
  core: EmulatorCore,
  faults: Faults,
  requestLog: readonly RequestLogEntry[],
): EmulatorControl {
  const { world } = core;
  const snapshot = (machine: MachineRecord) => {
    settleMachine(machine, core.now());
    return machineView(machine, 'show');
  };
  const machineRecord = (machineId: string) => {
    const machine = world.machines.get(machineId);
    if (!machine) throw new RangeError(`No machine with id ${machineId}`);
    return machine;
  };
  const users = (): EmulatorUser[] =>
    [...world.users.values()].map((user) => ({
      id: user.id,
      email: user.email,
      name: `${user.firstname} ${user.lastname}`,
      role: user.role,
      accountId: user.accountId,
      accountName: world.accounts.get(user.accountId)?.name ?? user.accountId,
      accountKind: world.accounts.get(user.accountId)?.kind ?? 'individual',
      apiKey: user.apiKey,
      accessToken: user.accessToken,
    }));

  return {
    now: () => core.now(),
    machine: (machineId) => {
      const machine = world.machines.get(machineId);
      return machine && snapshot(machine);
    },
    machineByName: (name) => {
      const machine = [...world.machines.values()].find((candidate) => candidate.name === name);
      return machine && snapshot(machine);
    },
    machines: () => [...world.machines.values()].map(snapshot),
    accessors: (machineId) => [...machineRecord(machineId).accessorIds],
    addMachines(count, spec) {
      const owner = world.users.get(spec.owner);
      if (!owner) throw new RangeError(`No user with id ${spec.owner}`);
      const template = spec.templateId
        ? world.templates.get(spec.templateId)
        : [...world.templates.values()].find(
            (candidate) => candidate.family === 'ubuntu' && candidate.accountId === null,
          );
      if (!template)
        throw new RangeError(`No template ${spec.templateId ?? '(stock Ubuntu)'} to build machines from`);
      const ids: string[] = [];
      for (let n = 1; n <= count; n += 1) {
        const machine = placeMachine(
          core,
          {
            name: `${spec.namePrefix ?? 'bulk'}-${n}`,
            owner,
            template,
            machineType: spec.machineType ?? 'C4',
            region: spec.region ?? 'East Coast (NY2)',
            sizeGb: 50,
            network: null,
          },
          spec.state ?? 'off',
        );
        ids.push(machine.id);
      }
      return ids;
    },
    failNextOperation(machineId, message = 'Injected failure: the hypervisor did not answer') {
      machineRecord(machineId).pendingFailure = message;
    },
    failNextCreate(message = 'Injected failure: no capacity left to provision the machine') {
      world.createFailures.push(message);
    },
    setAvailability(region, machineType, available) {
      world.availability.set(availabilityKey(region, machineType), available);
    },
    failNextRequests: (failure) => faults.failNextRequests(failure),
    hangKey: (apiKey) => faults.hang(apiKey),
    releaseKey: (apiKey) => faults.release(apiKey),
    heldRequests: () => faults.held(),
    users,
    user: (idOrEmail) => users().find((user) => user.id === idOrEmail || user.email === idOrEmail),
    scripts: () =>
      [...world.scripts.values()].map((script) => ({ ...scriptView(script), text: script.text })),
    delegations: () =>
      [...world.delegations.values()].map((delegation) => delegationView(delegation, core.now())),
    drives: () =>
      [...world.drives.values()].map((drive) => ({
        id: drive.id,
        name: drive.name,
        sizeGiB: drive.sizeGiB,
        region: drive.region,
        networkId: drive.networkId,
        teamId: drive.accountId,
      })),
    freeAddresses: (networkId) => {
      const network = world.networks.get(networkId);
      if (!network) throw new RangeError(`No network with id ${networkId}`);
      return freeAddressCount(network);
    },
    requests: () => requestLog,
  };
}
