// Utilization (billing of one machine in one month) and regional availability of GPU types.
import {
  DEDICATED_GPU_MACHINE_TYPES,
  isDedicatedGpuMachineType,
  REGIONS,
  type Region,
} from '../../src/paperspace/constants.js';
import { requireUser, visibleMachine } from './auth.js';
import { MACHINE_SPECS, storageMonthlyRate } from './catalog.js';
import { badRequest } from './errors.js';
import { requiredQuery } from './filters.js';
import { billedMs } from './lifecycle.js';
import { json, type Reply, type RequestContext, type Route } from './router.js';
import { isAvailable } from './world.js';

/** [start, end) of a `YYYY-MM` month in UTC. */
function monthBounds(billingMonth: string): { start: number; end: number } {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(billingMonth);
  if (!match) throw badRequest(`billingMonth must look like YYYY-MM, got "${billingMonth}"`);
  const year = Number(match[1]);
  const month = Number(match[2]);
  return { start: Date.UTC(year, month - 1, 1), end: Date.UTC(year, month, 1) };
}

function overlapMs(from: number, to: number, start: number, end: number): number {
  return Math.max(0, Math.min(to, end) - Math.max(from, start));
}

function getUtilization({ core, caller, query }: RequestContext): Reply {
  const machineId = requiredQuery(query, 'machineId');
  const billingMonth = requiredQuery(query, 'billingMonth');
  const { start, end } = monthBounds(billingMonth);
  const machine = visibleMachine(core, caller, machineId);
  const now = core.now();
  const until = Math.min(now, end);
  return json({
    machineId,
    utilization: {
      machineId,
      secondsUsed: billedMs(machine, start, until) / 1000,
      hourlyRate: MACHINE_SPECS[machine.machineType].hourlyRate,
      billingMonth,
    },
    storageUtilization: {
      machineId,
      secondsUsed: overlapMs(machine.dtCreated, now, start, end) / 1000,
      monthlyRate: storageMonthlyRate(machine.sizeGb),
      billingMonth,
    },
  });
}

function getAvailability({ core, caller, query }: RequestContext): Reply {
  requireUser(caller);
  const region = requiredQuery(query, 'region');
  const machineType = requiredQuery(query, 'machineType');
  if (!(REGIONS as readonly string[]).includes(region)) {
    throw badRequest(`region must be one of ${REGIONS.join(', ')}, got "${region}"`);
  }
  if (!isDedicatedGpuMachineType(machineType)) {
    throw badRequest(
      `Availability is reported only for ${DEDICATED_GPU_MACHINE_TYPES.join(', ')}, got "${machineType}"`,
    );
  }
  return json({ available: isAvailable(core.world, region as Region, machineType) });
}

export const usageRoutes: readonly Route[] = [
  { method: 'GET', path: '/machines/getUtilization', access: 'user', handle: getUtilization },
  { method: 'GET', path: '/machines/getAvailability', access: 'user', handle: getAvailability },
];
