// Machine reads and lifecycle operations: list, show, start, stop, restart, destroy, update and
// access. Create lives in machine-create.ts, utilization and availability in usage-routes.ts.
import { z } from 'zod';
import { AUTO_SNAPSHOT_FREQUENCIES } from '../../src/paperspace/constants.js';
import { requireManager, requireOwner, requireUser, visibleMachine, visibleMachines } from './auth.js';
import { badRequest } from './errors.js';
import { type FilterSpec, filterFromQuery, pageFromQuery, requiredQuery, viewFields } from './filters.js';
import { requestRestart, requestStart, requestStop, settleMachine } from './lifecycle.js';
import { removeMachine } from './machine-factory.js';
import { machineView } from './machine-view.js';
import type { MachineRecord } from './records.js';
import { json, noContent, parseBody, type Reply, type RequestContext, type Route } from './router.js';

type MachineListView = ReturnType<typeof machineView>;

const MACHINE_FILTERS: FilterSpec<MachineListView> = {
  machineId: { kind: 'string', value: (machine) => machine.id },
  ...viewFields<MachineListView>({
    name: 'string',
    os: 'string',
    ram: 'string',
    gpu: 'string',
    storageTotal: 'string',
    storageUsed: 'string',
    usageRate: 'string',
    autoSnapshotFrequency: 'string',
    agentType: 'string',
    dtCreated: 'string',
    state: 'string',
    networkId: 'string',
    privateIpAddress: 'string',
    publicIpAddress: 'string',
    region: 'string',
    userId: 'string',
    teamId: 'string',
    scriptId: 'string',
    dtLastRun: 'string',
    cpus: 'number',
    shutdownTimeoutInHours: 'number',
    autoSnapshotSaveCount: 'number',
    performAutoSnapshot: 'boolean',
    updatesPending: 'boolean',
  }),
};

function listMachines({ core, caller, query }: RequestContext): Reply {
  const matches = filterFromQuery(query, MACHINE_FILTERS, ['limit', 'skip']);
  const { limit, skip } = pageFromQuery(query);
  const now = core.now();
  const visible: MachineListView[] = [];
  for (const machine of visibleMachines(core, caller)) {
    settleMachine(machine, now);
    const view = machineView(machine, 'list');
    if (matches(view)) visible.push(view);
  }
  return json(visible.slice(skip, skip + limit));
}

function showMachine({ core, caller, query }: RequestContext): Reply {
  return json(machineView(visibleMachine(core, caller, requiredQuery(query, 'machineId')), 'show'));
}

/** Start, stop and restart belong to the machine's owner alone, even for a team administrator. */
function ownedMachine(context: RequestContext, verb: string): MachineRecord {
  const user = requireUser(context.caller);
  const machine = visibleMachine(context.core, context.caller, context.params.machineId ?? '');
  requireOwner(user, machine, verb);
  return machine;
}

function startMachine(context: RequestContext): Reply {
  const machine = ownedMachine(context, 'start');
  requestStart(context.core, machine);
  return json(machineView(machine, 'plain'));
}

function stopMachine(context: RequestContext): Reply {
  requestStop(context.core, ownedMachine(context, 'stop'));
  return noContent();
}

function restartMachine(context: RequestContext): Reply {
  const machine = ownedMachine(context, 'restart');
  requestRestart(context.core, machine);
  return json(machineView(machine, 'plain'));
}

function managedMachine(context: RequestContext, verb: string): MachineRecord {
  const user = requireUser(context.caller);
  const machine = visibleMachine(context.core, context.caller, context.params.machineId ?? '');
  requireManager(context.core, user, machine, verb);
  return machine;
}

const destroySchema = z.strictObject({ releasePublicIp: z.boolean().optional() });

function destroyMachine(context: RequestContext): Reply {
  const { core, query } = context;
  const machine = managedMachine(context, 'destroy');
  // The contract does not say whether releasePublicIp travels in the query or the body: take both.
  const fromQuery = query.get('releasePublicIp');
  if (fromQuery !== null && fromQuery !== 'true' && fromQuery !== 'false') {
    throw badRequest(`releasePublicIp must be true or false, got "${fromQuery}"`);
  }
  parseBody(destroySchema, context.body);
  removeMachine(core, machine);
  return noContent();
}

const updateSchema = z.strictObject({
  machineName: z.string().trim().min(1).optional(),
  shutdownTimeoutInHours: z.number().int().min(0).optional(),
  shutdownTimeoutForces: z.boolean().optional(),
  autoSnapshotFrequency: z.enum(AUTO_SNAPSHOT_FREQUENCIES).nullable().optional(),
  autoSnapshotSaveCount: z.number().int().min(0).optional(),
  performAutoSnapshot: z.boolean().optional(),
  dynamicPublicIp: z.boolean().optional(),
  assignPublicIp: z.boolean().optional(),
});

function updateMachine(context: RequestContext): Reply {
  const machine = managedMachine(context, 'update');
  const update = parseBody(updateSchema, context.body);
  if (update.assignPublicIp && update.dynamicPublicIp) {
    throw badRequest('assignPublicIp and dynamicPublicIp cannot be combined');
  }
  if (update.machineName !== undefined) machine.name = update.machineName;
  if (update.shutdownTimeoutInHours !== undefined)
    machine.shutdownTimeoutInHours = update.shutdownTimeoutInHours;
  if (update.shutdownTimeoutForces !== undefined)
    machine.shutdownTimeoutForces = update.shutdownTimeoutForces;
  if (update.autoSnapshotFrequency !== undefined)
    machine.autoSnapshotFrequency = update.autoSnapshotFrequency;
  if (update.autoSnapshotSaveCount !== undefined)
    machine.autoSnapshotSaveCount = update.autoSnapshotSaveCount;
  if (update.performAutoSnapshot !== undefined) machine.performAutoSnapshot = update.performAutoSnapshot;
  if (update.dynamicPublicIp !== undefined) {
    machine.dynamicPublicIp = update.dynamicPublicIp;
    if (update.dynamicPublicIp && machine.state === 'off') machine.publicIpAddress = null;
  }
  if (update.assignPublicIp) {
    machine.dynamicPublicIp = false;
    machine.publicIpAddress ??= context.core.ids.nextPublicIp();
  }
  return json(machineView(machine, 'plain'));
}

const accessSchema = z.strictObject({ userId: z.string().min(1), enableAccess: z.boolean() });

function setMachineAccess(context: RequestContext): Reply {
  const machine = managedMachine(context, 'change access to');
  const { userId, enableAccess } = parseBody(accessSchema, context.body);
  if (!context.core.world.users.has(userId)) throw badRequest(`userId: no user with id ${userId}`);
  if (enableAccess && userId !== machine.ownerId) machine.accessorIds.add(userId);
  if (!enableAccess) machine.accessorIds.delete(userId);
  return json({});
}

export const machineRoutes: readonly Route[] = [
  { method: 'GET', path: '/machines/getMachines', access: 'delegated', handle: listMachines },
  { method: 'GET', path: '/machines/getMachinePublic', access: 'delegated', handle: showMachine },
  { method: 'POST', path: '/machines/:machineId/start', access: 'user', handle: startMachine },
  { method: 'POST', path: '/machines/:machineId/stop', access: 'user', handle: stopMachine },
  { method: 'POST', path: '/machines/:machineId/restart', access: 'user', handle: restartMachine },
  { method: 'POST', path: '/machines/:machineId/destroyMachine', access: 'user', handle: destroyMachine },
  { method: 'POST', path: '/machines/:machineId/updateMachinePublic', access: 'user', handle: updateMachine },
  { method: 'POST', path: '/machines/:machineId/setMachineAccess', access: 'user', handle: setMachineAccess },
];
