// POST /machines/createSingleMachinePublic: every rule and forbidden combination of the contract,
// checked in the order a person would fix them (who you are, then what you sent), then provisioning.
import { z } from 'zod';
import {
  BILLING_TYPES,
  isCpuMachineType,
  isGridMachineType,
  MACHINE_TYPES,
  REGIONS,
  RESTORE_POINT_FREQUENCIES,
  type Region,
} from '../../src/paperspace/constants.js';
import { requireUser } from './auth.js';
import { type EmulatorMachineType, offeredMachineTypes, STORAGE_SIZES_GB } from './catalog.js';
import { badRequest, forbidden } from './errors.js';
import { provisionMachine } from './machine-factory.js';
import { machineView } from './machine-view.js';
import { freeAddressCount } from './network-space.js';
import type { NetworkRecord, TemplateRecord, UserRecord } from './records.js';
import { json, parseBody, type Reply, type RequestContext, type Route } from './router.js';
import { type EmulatorCore, isAvailable } from './world.js';

const optionalText = z.string().trim().min(1).optional();

const createSchema = z.strictObject({
  region: z.enum(REGIONS),
  machineType: z.enum(MACHINE_TYPES),
  size: z.number().int().positive(),
  billingType: z.enum(BILLING_TYPES),
  machineName: z.string().trim().min(1),
  templateId: z.string().min(1),
  teamId: optionalText,
  assignPublicIp: z.boolean().optional(),
  dynamicPublicIp: z.boolean().optional(),
  startOnCreate: z.boolean().optional(),
  networkId: optionalText,
  scriptId: optionalText,
  userId: optionalText,
  email: z.email().optional(),
  password: z.string().min(1).optional(),
  firstName: optionalText,
  lastName: optionalText,
  notificationEmail: z.email().optional(),
  takeInitialSnapshot: z.boolean().optional(),
  markSnapshotAsRestorePoint: z.boolean().optional(),
  restorePointFrequency: z.enum(RESTORE_POINT_FREQUENCIES).optional(),
  enableNvlink: z.boolean().optional(),
});

type CreateRequest = z.infer<typeof createSchema>;

const NEW_USER_FIELDS = ['email', 'password', 'firstName', 'lastName'] as const;

function checkCombinations(request: CreateRequest): void {
  if (!STORAGE_SIZES_GB.includes(request.size)) {
    throw badRequest(`size: ${request.size} GB is not offered; choose one of ${STORAGE_SIZES_GB.join(', ')}`);
  }
  // "Cannot be combined" forbids sending both parameters, whatever their values, as userId and the
  // new-user fields below; the client refuses the same requests before sending them.
  if (request.assignPublicIp !== undefined && request.dynamicPublicIp !== undefined) {
    throw badRequest('assignPublicIp and dynamicPublicIp cannot be combined; send one of them');
  }
  const newUserFields = NEW_USER_FIELDS.filter((field) => request[field] !== undefined);
  if (request.userId !== undefined && newUserFields.length > 0) {
    throw badRequest(`userId cannot be combined with ${newUserFields.join(', ')}`);
  }
  if (request.markSnapshotAsRestorePoint && !(request.takeInitialSnapshot && request.restorePointFrequency)) {
    throw badRequest(
      'markSnapshotAsRestorePoint requires takeInitialSnapshot set to true and a restorePointFrequency',
    );
  }
}

/** Who will own the machine: the caller on an individual account, an assigned user on a team. */
function resolveOwner(core: EmulatorCore, caller: UserRecord, request: CreateRequest): UserRecord {
  const account = core.world.accounts.get(caller.accountId);
  const newUserFields = NEW_USER_FIELDS.filter((field) => request[field] !== undefined);
  if (account?.kind !== 'team') {
    if (request.teamId !== undefined && request.teamId !== caller.accountId) {
      throw forbidden(`You cannot create machines for team ${request.teamId}`);
    }
    if (request.userId !== undefined || newUserFields.length > 0) {
      throw badRequest(
        'On an individual account the machine belongs to you: leave out userId and new-user fields',
      );
    }
    return caller;
  }
  if (request.teamId === undefined)
    throw badRequest(`teamId is required when creating for team ${account.id}`);
  if (request.teamId !== account.id) throw forbidden(`You cannot create machines for team ${request.teamId}`);
  if (request.userId !== undefined) {
    const owner = core.world.users.get(request.userId);
    if (owner?.accountId !== account.id)
      throw badRequest(`userId: ${request.userId} is not a member of this team`);
    return owner;
  }
  if (newUserFields.length === 0) {
    throw badRequest(
      'A team administrator must assign the machine to a user: give userId, or email, password, firstName and lastName',
    );
  }
  const missing = NEW_USER_FIELDS.filter((field) => request[field] === undefined);
  if (missing.length > 0) throw badRequest(`A new user also needs ${missing.join(', ')}`);
  const email = request.email ?? '';
  if ([...core.world.users.values()].some((user) => user.email.toLowerCase() === email.toLowerCase())) {
    throw badRequest(`email: a user with e-mail ${email} already exists`);
  }
  const user: UserRecord = {
    id: core.ids.next('u'),
    email,
    firstname: request.firstName ?? '',
    lastname: request.lastName ?? '',
    accountId: account.id,
    role: 'member',
    apiKey: null,
    accessToken: null,
    dtCreated: core.now(),
  };
  core.world.users.set(user.id, user);
  return user;
}

/** Where and from what a machine is to be built; both dialects check it the same way. */
export interface PlacementRequest {
  readonly templateId: string;
  readonly region: Region;
  /** Any label: the contract's schema allows only its fixed list, v1's any, and the template decides. */
  readonly machineType: string;
  readonly scriptId?: string | undefined;
  readonly networkId?: string | undefined;
}

function resolveNetwork(
  core: EmulatorCore,
  caller: UserRecord,
  request: PlacementRequest,
): NetworkRecord | null {
  if (request.networkId === undefined) return null;
  const network = core.world.networks.get(request.networkId);
  if (network?.accountId !== caller.accountId) throw badRequest(`networkId: no network ${request.networkId}`);
  if (network.region !== request.region) {
    throw badRequest(`networkId: network ${network.id} is in ${network.region}, not ${request.region}`);
  }
  if (freeAddressCount(network) === 0)
    throw badRequest(`networkId: network ${network.id} has no free IP space`);
  return network;
}

/** The template, script, GPU availability and network rules of creation; answers the template and network. */
export function checkPlacement(
  core: EmulatorCore,
  user: UserRecord,
  request: PlacementRequest,
): { template: TemplateRecord; network: NetworkRecord | null; machineType: EmulatorMachineType } {
  const template = core.world.templates.get(request.templateId);
  if (!template || (template.accountId !== null && template.accountId !== user.accountId)) {
    throw badRequest(`templateId: no template ${request.templateId}`);
  }
  if (template.region !== null && template.region !== request.region) {
    throw badRequest(`templateId: template ${template.id} is only available in ${template.region}`);
  }
  if (template.family === 'windows' && isCpuMachineType(request.machineType)) {
    throw badRequest(`Windows templates cannot create ${request.machineType} machines (C1 to C10)`);
  }
  if (template.family === 'ubuntu' && isGridMachineType(request.machineType)) {
    throw badRequest(
      `Ubuntu templates cannot create ${request.machineType} machines (Air, Standard, Pro, Advanced)`,
    );
  }
  if (!isAvailable(core.world, request.region, request.machineType)) {
    throw badRequest(`${request.machineType} machines are not available in ${request.region} right now`);
  }
  const offered = offeredMachineTypes(template);
  const machineType = offered.find((type) => type === request.machineType);
  if (machineType === undefined) {
    throw badRequest(
      `machineType: template ${template.label ?? template.name} (${template.id}) is not available on ` +
        `${request.machineType}; it is available on ${offered.join(', ')}`,
    );
  }
  if (
    request.scriptId !== undefined &&
    core.world.scripts.get(request.scriptId)?.accountId !== user.accountId
  ) {
    throw badRequest(`scriptId: no script ${request.scriptId}`);
  }
  return { template, network: resolveNetwork(core, user, request), machineType };
}

function createMachine({ core, caller, body }: RequestContext): Reply {
  const user = requireUser(caller);
  if (user.role !== 'admin') throw forbidden('Only account administrators can create machines');
  const request = parseBody(createSchema, body);
  checkCombinations(request);
  const { template, network } = checkPlacement(core, user, request);
  const owner = resolveOwner(core, user, request);
  const machine = provisionMachine(
    core,
    {
      name: request.machineName,
      owner,
      template,
      machineType: request.machineType,
      region: request.region,
      sizeGb: request.size,
      network,
      scriptId: request.scriptId ?? null,
      dynamicPublicIp: request.dynamicPublicIp ?? false,
      assignPublicIp: request.assignPublicIp ?? false,
      takeInitialSnapshot: request.takeInitialSnapshot ?? false,
      markSnapshotAsRestorePoint: request.markSnapshotAsRestorePoint ?? false,
      restorePointFrequency: request.restorePointFrequency ?? null,
    },
    request.startOnCreate ?? true,
    core.world.createFailures.shift() ?? null,
  );
  return json(machineView(machine, 'plain'));
}

export const machineCreateRoutes: readonly Route[] = [
  { method: 'POST', path: '/machines/createSingleMachinePublic', access: 'user', handle: createMachine },
];
