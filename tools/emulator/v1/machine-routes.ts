// v1 machine reads and changes: list, get, update, delete. Create is in machine-create.ts, the
// power actions in machine-actions.ts. Who may do what is the world's rule (auth.ts), as for the contract.
import { z } from 'zod';
import { requireManager, visibleMachine, visibleMachines } from '../auth.js';
import { badRequest } from '../errors.js';
import { newEvent, settleMachine } from '../lifecycle.js';
import { removeMachine } from '../machine-factory.js';
import type { MachineRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import type { EmulatorCore } from '../world.js';
import { parseV1Body } from './errors.js';
import { paginate } from './paging.js';
import { asRegionId } from './regions.js';
import type { V1Context, V1Route } from './router.js';
import { snapshotFrequencyToWorld, v1SnapshotFrequencySchema } from './snapshot-frequency.js';
import { eventV1View, machineV1View } from './views.js';

type MachineView = ReturnType<typeof machineV1View>;

function listMachines({ core, user, query, paging }: V1Context): Reply {
  const now = core.now();
  const caller = { kind: 'user', user } as const;
  const views: MachineView[] = [];
  for (const machine of visibleMachines(core, caller)) {
    settleMachine(machine, now);
    views.push(machineV1View(machine));
  }
  return json(
    paginate(
      views,
      query,
      {
        orderBy: { dtCreated: (m) => m.dtCreated, name: (m) => m.name, state: (m) => m.state },
        key: (m) => m.id,
        filters: {
          name: (m, value) => m.name === value,
          region: (m, value) => m.region === asRegionId(value),
          agentType: (m, value) => m.agentType === value,
          machineType: (m, value) => m.machineType === value,
        },
      },
      paging,
    ),
  );
}

export function v1Machine(context: V1Context): MachineRecord {
  return visibleMachine(context.core, { kind: 'user', user: context.user }, context.params.id ?? '');
}

function getMachine(context: V1Context): Reply {
  return json(machineV1View(v1Machine(context)));
}

const updateSchema = z.strictObject({
  name: z.string().trim().min(1).optional(),
  autoShutdownEnabled: z.boolean().optional(),
  autoShutdownTimeout: z.number().int().min(1).optional(),
  autoShutdownForce: z.boolean().optional(),
  autoSnapshotEnabled: z.boolean().optional(),
  autoSnapshotFrequency: v1SnapshotFrequencySchema.optional(),
  autoSnapshotSaveCount: z.number().int().min(1).optional(),
  diskSize: z.number().gt(0).optional(),
  machineType: z.string().min(1).optional(),
  networkId: z.string().min(1).optional(),
  publicIpType: z.enum(['static', 'dynamic', 'none']).optional(),
  restorePointEnabled: z.boolean().optional(),
  restorePointFrequency: z.literal('shutdown').optional(),
  restorePointSnapshotId: z.string().min(1).optional(),
});

type MachineUpdate = z.infer<typeof updateSchema>;

/** Resizing and moving between networks are not modelled: the emulator says so instead of pretending. */
function refuseUnmodelled(machine: MachineRecord, update: MachineUpdate): void {
  if (update.diskSize !== undefined && update.diskSize !== machine.sizeGb) {
    throw badRequest('diskSize: the emulator cannot resize a machine’s disk');
  }
  if (update.machineType !== undefined && update.machineType !== machine.machineType) {
    throw badRequest('machineType: the emulator cannot change a machine’s type');
  }
  if (update.networkId !== undefined && update.networkId !== machine.networkId) {
    throw badRequest('networkId: the emulator cannot move a machine to another network');
  }
}

function applyPublicIpType(
  core: EmulatorCore,
  machine: MachineRecord,
  type: 'static' | 'dynamic' | 'none',
): void {
  machine.dynamicPublicIp = type === 'dynamic';
  if (type === 'none' || (type === 'dynamic' && machine.state === 'off')) machine.publicIpAddress = null;
  if (type === 'static') machine.publicIpAddress ??= core.ids.nextPublicIp();
}

function updateMachine(context: V1Context): Reply {
  const machine = v1Machine(context);
  requireManager(context.core, context.user, machine, 'update');
  const update = parseV1Body(updateSchema, context.body);
  refuseUnmodelled(machine, update);
  if (update.name !== undefined) machine.name = update.name;
  if (update.autoShutdownEnabled === false) machine.shutdownTimeoutInHours = null;
  if (update.autoShutdownTimeout !== undefined && update.autoShutdownEnabled !== false) {
    machine.shutdownTimeoutInHours = update.autoShutdownTimeout;
  }
  if (update.autoShutdownEnabled === true && machine.shutdownTimeoutInHours === null) {
    throw badRequest('autoShutdownTimeout: give a timeout in hours to enable auto shutdown');
  }
  if (update.autoShutdownForce !== undefined) machine.shutdownTimeoutForces = update.autoShutdownForce;
  if (update.autoSnapshotEnabled !== undefined) machine.performAutoSnapshot = update.autoSnapshotEnabled;
  if (update.autoSnapshotFrequency !== undefined)
    machine.autoSnapshotFrequency = snapshotFrequencyToWorld(update.autoSnapshotFrequency);
  if (update.autoSnapshotSaveCount !== undefined)
    machine.autoSnapshotSaveCount = update.autoSnapshotSaveCount;
  if (update.restorePointEnabled === false) machine.restorePointFrequency = null;
  if (update.restorePointFrequency !== undefined && update.restorePointEnabled !== false) {
    machine.restorePointFrequency = update.restorePointFrequency;
  }
  if (update.restorePointSnapshotId !== undefined)
    machine.restorePointSnapshotId = update.restorePointSnapshotId;
  if (update.publicIpType !== undefined) applyPublicIpType(context.core, machine, update.publicIpType);
  return json({ data: machineV1View(machine) });
}

/** The machine is shut down and gone at once; the answer's `deactivate` event is already done. */
function deleteMachine(context: V1Context): Reply {
  const { core } = context;
  const machine = v1Machine(context);
  requireManager(core, context.user, machine, 'delete');
  const event = newEvent('deactivate', 'done', core.now());
  machine.events.unshift(event);
  removeMachine(core, machine);
  return json({ data: machineV1View(machine), event: eventV1View(machine.id, event) });
}

export const v1MachineRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/machines', handle: listMachines },
  { method: 'GET', path: '/machines/:id', handle: getMachine },
  { method: 'PUT', path: '/machines/:id', handle: updateMachine },
  { method: 'DELETE', path: '/machines/:id', handle: deleteMachine },
];
