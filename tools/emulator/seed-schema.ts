// The seed file format (documented in docs/emulator.md): accounts, templates, networks, machines,
// scripts, shared drives and availability. Validation checks shapes with zod and then every
// cross-reference, and names the bad path (`machines[3].owner: no user with id "u9"`).
import { z } from 'zod';
import {
  isCpuMachineType,
  isGridMachineType,
  MACHINE_STATES,
  REGIONS,
  SCRIPT_MAX_BYTES,
} from '../../src/paperspace/constants.js';
import {
  EMULATOR_MACHINE_TYPES,
  STORAGE_SIZES_GB,
  templateFamilyOf,
  V1_ONLY_MACHINE_TYPES,
} from './catalog.js';
import { networkSize } from './network-space.js';

const id = z.string().trim().min(1);
const text = z.string().trim().min(1);
const timestamp = z.iso.datetime({ offset: true }).optional();

const teamSchema = z.strictObject({ id, name: text, dtCreated: timestamp });

const userSchema = z.strictObject({
  id,
  email: z.email(),
  firstname: text,
  lastname: text,
  /** Absent: an individual account, whose user is its own administrator. */
  team: id.optional(),
  role: z.enum(['admin', 'member']).optional(),
  apiKey: z.string().min(8).optional(),
  accessToken: z.string().min(8).optional(),
  dtCreated: timestamp,
});

const templateSchema = z.strictObject({
  id,
  name: text,
  label: z.string().nullable().optional(),
  os: text,
  agentType: z.enum(['LinuxHeadless', 'LinuxDesktop', 'WindowsDesktop']).optional(),
  /** A team id, or the user id of an individual account; absent for stock templates. */
  account: id.optional(),
  region: z.enum(REGIONS).optional(),
  /**
   * An account's template: the machine it was made from, and that machine's region, which v1 answers
   * for every custom template (parentMachineId, region). Written out rather than looked up, since a
   * template outlives its machine: the machine need not be in the seed.
   */
  madeFrom: z.strictObject({ machine: id, region: z.enum(REGIONS) }).optional(),
  dtCreated: timestamp,
});

const networkSchema = z.strictObject({
  id,
  name: text,
  region: z.enum(REGIONS),
  network: text,
  netmask: text,
  /** A team id, or the user id of an individual account. */
  account: id,
  dtCreated: timestamp,
});

const machineSchema = z.strictObject({
  id: id.optional(),
  name: text,
  owner: id,
  templateId: id,
  // v1's own types too (A100 …): a seed can show the machines v1 sells.
  machineType: z.enum(EMULATOR_MACHINE_TYPES),
  region: z.enum(REGIONS),
  state: z.enum(MACHINE_STATES).default('off'),
  size: z.number().int().positive().default(50),
  networkId: id.optional(),
  dynamicPublicIp: z.boolean().optional(),
  assignPublicIp: z.boolean().optional(),
  updatesPending: z.boolean().optional(),
  /** Users (of any account) the machine is shared with through setMachineAccess. */
  accessors: z.array(id).default([]),
  dtCreated: timestamp,
});

const scriptSchema = z.strictObject({
  id: id.optional(),
  name: text,
  owner: id,
  text: z.string().min(1),
  description: z.string().optional(),
  isEnabled: z.boolean().optional(),
  runOnce: z.boolean().optional(),
  /** Ids of machines (of the owner's account) that run the script at startup. */
  machines: z.array(id).default([]),
  dtCreated: timestamp,
});

const driveSchema = z.strictObject({
  id: id.optional(),
  name: text,
  sizeGiB: z.number().int().positive(),
  /** A network of a team; the drive takes one of its addresses and its region. */
  networkId: id,
  dtCreated: timestamp,
});

const availabilitySchema = z.strictObject({
  region: z.enum(REGIONS),
  machineType: z.enum(EMULATOR_MACHINE_TYPES),
  available: z.boolean(),
});

type Issue = { path: (string | number)[]; message: string };

const seedShape = z.strictObject({
  teams: z.array(teamSchema).default([]),
  users: z.array(userSchema).min(1),
  templates: z.array(templateSchema).default([]),
  networks: z.array(networkSchema).default([]),
  machines: z.array(machineSchema).default([]),
  scripts: z.array(scriptSchema).default([]),
  drives: z.array(driveSchema).default([]),
  /** Overrides of the built-in availability table (catalog.ts). */
  availability: z.array(availabilitySchema).default([]),
});

/** What a seed file may contain (defaults not yet applied). */
export type SeedInput = z.input<typeof seedShape>;
/** A validated seed with defaults applied. */
export type Seed = z.output<typeof seedShape>;

const seedSchema = seedShape.superRefine((seed, context) => {
  for (const issue of crossReferenceIssues(seed)) context.addIssue({ code: 'custom', ...issue });
});

function duplicates<T>(items: readonly T[], key: (item: T) => string | undefined, where: string): Issue[] {
  const seen = new Set<string>();
  const issues: Issue[] = [];
  items.forEach((item, index) => {
    const value = key(item);
    if (value === undefined) return;
    if (seen.has(value)) issues.push({ path: [where, index], message: `duplicate value "${value}"` });
    seen.add(value);
  });
  return issues;
}

function crossReferenceIssues(seed: Seed): Issue[] {
  const issues: Issue[] = [];
  const teams = new Set(seed.teams.map((team) => team.id));
  const users = new Map(seed.users.map((user) => [user.id, user]));
  const accountOf = (userId: string) => users.get(userId)?.team ?? userId;
  const isAccount = (ref: string) => teams.has(ref) || (users.has(ref) && users.get(ref)?.team === undefined);
  const templates = new Map(seed.templates.map((template) => [template.id, template]));
  const networks = new Map(seed.networks.map((network) => [network.id, network]));
  const machines = new Map(seed.machines.flatMap((machine) => (machine.id ? [[machine.id, machine]] : [])));

  issues.push(...duplicates(seed.teams, (team) => team.id, 'teams'));
  issues.push(...duplicates(seed.users, (user) => user.id, 'users'));
  issues.push(...duplicates(seed.users, (user) => user.email.toLowerCase(), 'users'));
  issues.push(...duplicates(seed.users, (user) => user.apiKey, 'users'));
  issues.push(...duplicates(seed.users, (user) => user.accessToken, 'users'));
  issues.push(...duplicates(seed.templates, (template) => template.id, 'templates'));
  issues.push(...duplicates(seed.networks, (network) => network.id, 'networks'));
  issues.push(...duplicates(seed.machines, (machine) => machine.id, 'machines'));
  issues.push(...duplicates(seed.scripts, (script) => script.id, 'scripts'));
  issues.push(...duplicates(seed.drives, (drive) => drive.id, 'drives'));

  seed.users.forEach((user, index) => {
    if (user.team !== undefined && !teams.has(user.team)) {
      issues.push({ path: ['users', index, 'team'], message: `no team with id "${user.team}"` });
    }
    if (user.team === undefined && user.role === 'member') {
      issues.push({
        path: ['users', index, 'role'],
        message: "an individual account's user is its own administrator",
      });
    }
  });
  seed.templates.forEach((template, index) => {
    if (templateFamilyOf(template.os) === null) {
      issues.push({ path: ['templates', index, 'os'], message: 'must name Windows or Ubuntu' });
    }
    if (template.account !== undefined && !isAccount(template.account)) {
      issues.push({
        path: ['templates', index, 'account'],
        message: `no team or individual user "${template.account}"`,
      });
    }
    const at = (message: string) => issues.push({ path: ['templates', index, 'madeFrom'], message });
    if (template.account === undefined && template.madeFrom !== undefined) {
      at("only an account's template is made from a machine");
    }
    if (template.account !== undefined && template.madeFrom === undefined) {
      at("an account's template names the machine it was made from");
    }
  });
  seed.networks.forEach((network, index) => {
    const size = networkSize(network.network, network.netmask);
    if (typeof size === 'string') issues.push({ path: ['networks', index, 'netmask'], message: size });
    if (!isAccount(network.account)) {
      issues.push({
        path: ['networks', index, 'account'],
        message: `no team or individual user "${network.account}"`,
      });
    }
  });
  seed.machines.forEach((machine, index) => {
    const at = (field: string, message: string) => issues.push({ path: ['machines', index, field], message });
    if (!users.has(machine.owner)) at('owner', `no user with id "${machine.owner}"`);
    const template = templates.get(machine.templateId);
    const family = template ? templateFamilyOf(template.os) : null;
    if (!template) at('templateId', `no template with id "${machine.templateId}"`);
    else if (template.account !== undefined && template.account !== accountOf(machine.owner)) {
      at('templateId', `template "${template.id}" belongs to another account`);
    }
    if (family === 'windows' && isCpuMachineType(machine.machineType)) {
      at('machineType', 'Windows templates cannot create C1 to C10');
    }
    if (family === 'windows' && (V1_ONLY_MACHINE_TYPES as readonly string[]).includes(machine.machineType)) {
      at('machineType', `Windows templates cannot create ${V1_ONLY_MACHINE_TYPES.join(', ')}`);
    }
    if (family === 'ubuntu' && isGridMachineType(machine.machineType)) {
      at('machineType', 'Ubuntu templates cannot create Air, Standard, Pro or Advanced');
    }
    if (!STORAGE_SIZES_GB.includes(machine.size)) at('size', `must be one of ${STORAGE_SIZES_GB.join(', ')}`);
    const network = machine.networkId === undefined ? undefined : networks.get(machine.networkId);
    if (machine.networkId !== undefined && !network)
      at('networkId', `no network with id "${machine.networkId}"`);
    if (network && (network.account !== accountOf(machine.owner) || network.region !== machine.region)) {
      at('networkId', `network "${network.id}" is not the owner's network in ${machine.region}`);
    }
    if (machine.assignPublicIp && machine.dynamicPublicIp)
      at('assignPublicIp', 'cannot be combined with dynamicPublicIp');
    machine.accessors.forEach((accessor, accessorIndex) => {
      if (!users.has(accessor)) {
        issues.push({
          path: ['machines', index, 'accessors', accessorIndex],
          message: `no user with id "${accessor}"`,
        });
      }
    });
  });
  seed.scripts.forEach((script, index) => {
    if (!users.has(script.owner))
      issues.push({ path: ['scripts', index, 'owner'], message: `no user "${script.owner}"` });
    if (Buffer.byteLength(script.text, 'utf8') > SCRIPT_MAX_BYTES) {
      issues.push({ path: ['scripts', index, 'text'], message: `longer than ${SCRIPT_MAX_BYTES} bytes` });
    }
    const sameName = seed.scripts.findIndex(
      (other) => other.name === script.name && accountOf(other.owner) === accountOf(script.owner),
    );
    if (sameName !== index)
      issues.push({ path: ['scripts', index, 'name'], message: `duplicate name "${script.name}"` });
    script.machines.forEach((machineId, machineIndex) => {
      const machine = machines.get(machineId);
      if (!machine || accountOf(machine.owner) !== accountOf(script.owner)) {
        issues.push({
          path: ['scripts', index, 'machines', machineIndex],
          message: `no machine with id "${machineId}" in the owner's account`,
        });
      }
    });
  });
  seed.drives.forEach((drive, index) => {
    const network = networks.get(drive.networkId);
    if (!network || !teams.has(network.account)) {
      issues.push({
        path: ['drives', index, 'networkId'],
        message: `no team network with id "${drive.networkId}"`,
      });
    }
  });
  return issues;
}

export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, part) => {
    if (typeof part === 'number') return `${text}[${part}]`;
    return text === '' ? String(part) : `${text}.${String(part)}`;
  }, '');
}

/** Validates a seed; the error lists every problem with its path. */
export function parseSeed(input: unknown): Seed {
  const result = seedSchema.safeParse(input);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) => `  ${formatPath(issue.path) || '(seed)'}: ${issue.message}`,
  );
  throw new SeedError(`Invalid seed:\n${lines.join('\n')}`);
}
