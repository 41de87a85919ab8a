// POST /machines in v1's body. The machine belongs to the caller (v1 has no userId or new-user
// fields); the world's rules decide the rest: only administrators create, template, availability,
// network and storage sizes are checked by the same code as the contract's create.
import { z } from 'zod';
import { badRequest, forbidden } from '../errors.js';
import { checkPlacement } from '../machine-create.js';
import { provisionMachine } from '../machine-factory.js';
import { json, type Reply } from '../router.js';
import { parseV1Body } from './errors.js';
import { requireRegion } from './regions.js';
import type { V1Context, V1Route } from './router.js';
import { snapshotFrequencyToWorld, v1SnapshotFrequencySchema } from './snapshot-frequency.js';
import { eventV1View, machineV1View } from './views.js';

const createSchema = z.strictObject({
  name: z.string().trim().min(1),
  // Any label: v1's catalog is the template's availableMachineTypes, checked once the template is known.
  machineType: z.string().trim().min(1),
  templateId: z.string().min(1),
  region: z.string().min(1),
  // The OpenAPI's `anyOf` the listed sizes or any number above 0: only 0, a negative or not a number is refused.
  diskSize: z.number().gt(0),
  networkId: z.string().min(1).optional(),
  publicIpType: z.enum(['static', 'dynamic', 'none']).optional(),
  startOnCreate: z.boolean().optional(),
  startupScriptId: z.string().min(1).optional(),
  accessorIds: z.array(z.string().min(1)).optional(),
  autoShutdownEnabled: z.boolean().optional(),
  autoShutdownTimeout: z.number().int().min(1).optional(),
  autoShutdownForce: z.boolean().optional(),
  autoSnapshotEnabled: z.boolean().optional(),
  autoSnapshotFrequency: v1SnapshotFrequencySchema.optional(),
  autoSnapshotSaveCount: z.number().int().min(1).optional(),
  takeInitialSnapshot: z.boolean().optional(),
  restorePointEnabled: z.boolean().optional(),
  restorePointFrequency: z.literal('shutdown').optional(),
  // Accepted and not modelled: NVLink pairs and e-mailing the Windows password.
  enableNvlink: z.boolean().optional(),
  emailPassword: z.boolean().optional(),
});

type CreateRequest = z.infer<typeof createSchema>;

function checkRequest(context: V1Context, request: CreateRequest): void {
  if (request.restorePointEnabled && !(request.takeInitialSnapshot && request.restorePointFrequency)) {
    throw badRequest(
      'restorePointEnabled requires takeInitialSnapshot set to true and a restorePointFrequency',
    );
  }
  if (request.autoShutdownEnabled && request.autoShutdownTimeout === undefined) {
    throw badRequest('autoShutdownTimeout: give a timeout in hours to enable auto shutdown');
  }
  for (const userId of request.accessorIds ?? []) {
    if (context.core.world.users.get(userId)?.accountId !== context.user.accountId) {
      throw badRequest(`accessorIds: ${userId} is not a member of this team`);
    }
  }
}

function createMachine(context: V1Context): Reply {
  const { core, user } = context;
  if (user.role !== 'admin') throw forbidden('Only team administrators can create machines');
  const request = parseV1Body(createSchema, context.body);
  checkRequest(context, request);
  const region = requireRegion('region', request.region);
  const { template, network, machineType } = checkPlacement(core, user, {
    templateId: request.templateId,
    region,
    machineType: request.machineType,
    scriptId: request.startupScriptId,
    networkId: request.networkId,
  });
  const machine = provisionMachine(
    core,
    {
      name: request.name,
      owner: user,
      template,
      machineType,
      region,
      sizeGb: request.diskSize,
      network,
      scriptId: request.startupScriptId ?? null,
      dynamicPublicIp: request.publicIpType === 'dynamic',
      assignPublicIp: request.publicIpType === 'static',
      takeInitialSnapshot: request.takeInitialSnapshot ?? false,
      markSnapshotAsRestorePoint: request.restorePointEnabled ?? false,
      restorePointFrequency: request.restorePointFrequency ?? null,
    },
    request.startOnCreate ?? true,
    core.world.createFailures.shift() ?? null,
  );
  if (request.autoShutdownEnabled === false) machine.shutdownTimeoutInHours = null;
  if (request.autoShutdownEnabled) machine.shutdownTimeoutInHours = request.autoShutdownTimeout ?? null;
  machine.shutdownTimeoutForces = request.autoShutdownForce ?? false;
  machine.performAutoSnapshot = request.autoSnapshotEnabled ?? false;
  machine.autoSnapshotFrequency =
    request.autoSnapshotFrequency === undefined
      ? null
      : snapshotFrequencyToWorld(request.autoSnapshotFrequency);
  machine.autoSnapshotSaveCount = request.autoSnapshotSaveCount ?? null;
  for (const userId of request.accessorIds ?? []) if (userId !== user.id) machine.accessorIds.add(userId);
  const event = machine.events.find((candidate) => candidate.name === 'create');
  return json({ data: machineV1View(machine), ...(event ? { event: eventV1View(machine.id, event) } : {}) });
}

export const v1MachineCreateRoutes: readonly V1Route[] = [
  { method: 'POST', path: '/machines', handle: createMachine },
];
