// Loads a validated seed into a World: accounts (a personal account for every team-less user),
// templates, networks, machines in their seeded states, scripts, shared drives and availability.
import {
  DEDICATED_GPU_MACHINE_TYPES,
  type DedicatedGpuMachineType,
  REGIONS,
} from '../../src/paperspace/constants.js';
import { DEFAULT_AVAILABILITY, templateFamilyOf } from './catalog.js';
import { placeMachine } from './machine-factory.js';
import { allocateAddress } from './network-space.js';
import type { AgentType, TemplateRecord, UserRecord } from './records.js';
import { parseSeed, type Seed, SeedError } from './seed-schema.js';
import { availabilityKey, type EmulatorCore } from './world.js';

const timeOf = (core: EmulatorCore, dtCreated: string | undefined) =>
  dtCreated === undefined ? core.now() : Date.parse(dtCreated);

function loadAccounts(core: EmulatorCore, seed: Seed): Map<string, string> {
  const { world } = core;
  /** Seed account reference (team id, or user id of an individual) -> account id. */
  const accountRefs = new Map<string, string>();
  for (const team of seed.teams) {
    world.accounts.set(team.id, {
      id: team.id,
      name: team.name,
      kind: 'team',
      dtCreated: timeOf(core, team.dtCreated),
    });
    accountRefs.set(team.id, team.id);
  }
  for (const user of seed.users) {
    let accountId = user.team;
    if (accountId === undefined) {
      accountId = core.ids.next('te');
      const name = `${user.firstname} ${user.lastname}`;
      world.accounts.set(accountId, {
        id: accountId,
        name,
        kind: 'individual',
        dtCreated: timeOf(core, user.dtCreated),
      });
      accountRefs.set(user.id, accountId);
    }
    const record: UserRecord = {
      id: user.id,
      email: user.email,
      firstname: user.firstname,
      lastname: user.lastname,
      accountId,
      role: user.team === undefined ? 'admin' : (user.role ?? 'member'),
      apiKey: user.apiKey ?? null,
      accessToken: user.accessToken ?? null,
      dtCreated: timeOf(core, user.dtCreated),
    };
    world.users.set(record.id, record);
  }
  return accountRefs;
}

function defaultAgentType(os: string): AgentType {
  return templateFamilyOf(os) === 'windows' ? 'WindowsDesktop' : 'LinuxHeadless';
}

function loadMachines(core: EmulatorCore, seed: Seed): void {
  const { world } = core;
  seed.machines.forEach((machine, index) => {
    const owner = world.users.get(machine.owner);
    const template = world.templates.get(machine.templateId);
    if (!owner || !template)
      throw new SeedError(`seed machine ${index} passed validation with a dangling reference`);
    const record = placeMachine(
      core,
      {
        ...(machine.id ? { id: machine.id } : {}),
        name: machine.name,
        owner,
        template,
        machineType: machine.machineType,
        region: machine.region,
        sizeGb: machine.size,
        network: machine.networkId === undefined ? null : (world.networks.get(machine.networkId) ?? null),
        dynamicPublicIp: machine.dynamicPublicIp ?? false,
        assignPublicIp: machine.assignPublicIp ?? false,
        updatesPending: machine.updatesPending ?? false,
        dtCreated: timeOf(core, machine.dtCreated),
      },
      machine.state,
    );
    for (const accessor of machine.accessors) record.accessorIds.add(accessor);
  });
}

export function loadSeed(core: EmulatorCore, input: unknown): void {
  const seed = parseSeed(input);
  const { world } = core;
  const accountRefs = loadAccounts(core, seed);
  const accountOf = (ref: string) => accountRefs.get(ref) ?? ref;

  for (const template of seed.templates) {
    const record: TemplateRecord = {
      id: template.id,
      name: template.name,
      label: template.label ?? null,
      os: template.os,
      family: templateFamilyOf(template.os) ?? 'ubuntu',
      agentType: template.agentType ?? defaultAgentType(template.os),
      accountId: template.account === undefined ? null : accountOf(template.account),
      region: template.region ?? null,
      parentMachine: template.madeFrom
        ? { id: template.madeFrom.machine, region: template.madeFrom.region }
        : null,
      dtCreated: timeOf(core, template.dtCreated),
    };
    world.templates.set(record.id, record);
  }
  for (const network of seed.networks) {
    world.networks.set(network.id, {
      ...network,
      accountId: accountOf(network.account),
      dtCreated: timeOf(core, network.dtCreated),
      allocated: new Set(),
    });
  }
  loadMachines(core, seed);
  for (const script of seed.scripts) {
    const owner = world.users.get(script.owner);
    if (!owner) continue;
    const team = world.accounts.get(owner.accountId)?.kind === 'team';
    const id = script.id ?? core.ids.next('sc');
    world.scripts.set(id, {
      id,
      name: script.name,
      description: script.description ?? null,
      text: script.text,
      ownerType: team ? 'team' : 'user',
      ownerId: team ? owner.accountId : owner.id,
      accountId: owner.accountId,
      creatorId: owner.id,
      isEnabled: script.isEnabled ?? true,
      runOnce: script.runOnce ?? false,
      dtCreated: timeOf(core, script.dtCreated),
    });
    for (const machineId of script.machines) {
      const machine = world.machines.get(machineId);
      if (machine) machine.scriptId = id;
    }
  }
  seed.drives.forEach((drive, index) => {
    const network = world.networks.get(drive.networkId);
    const ipAddress = network ? allocateAddress(network) : null;
    if (!network || ipAddress === null) {
      throw new SeedError(
        `Invalid seed:\n  drives[${index}].networkId: network "${drive.networkId}" has no free IP space`,
      );
    }
    const id = drive.id ?? core.ids.next('sd');
    world.drives.set(id, {
      id,
      name: drive.name,
      sizeGiB: drive.sizeGiB,
      region: network.region,
      networkId: network.id,
      accountId: network.accountId,
      ipAddress,
      username: core.ids.secret('u'),
      password: core.ids.secret('p'),
      dtCreated: timeOf(core, drive.dtCreated),
    });
  });

  for (const region of REGIONS) {
    for (const machineType of DEDICATED_GPU_MACHINE_TYPES) {
      const available = DEFAULT_AVAILABILITY[region][machineType as DedicatedGpuMachineType];
      if (available !== undefined) world.availability.set(availabilityKey(region, machineType), available);
    }
  }
  for (const entry of seed.availability) {
    world.availability.set(availabilityKey(entry.region, entry.machineType), entry.available);
  }
}
