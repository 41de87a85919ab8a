// PATCH /machines/{id}/start|stop|restart with `{}`: the world's lifecycle, answered as
// `{ data, event }`. Where the contract answers a repeated start or stop as a silent no-op, v1
// refuses it with 400 ("currently starting"), so no event is made for it.
import { z } from 'zod';
import { badRequest, forbidden } from '../errors.js';
import { requestRestart, requestStart, requestStop } from '../lifecycle.js';
import type { MachineRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import { parseV1Body } from './errors.js';
import { v1Machine } from './machine-routes.js';
import type { V1Context, V1Route } from './router.js';
import { eventV1View, machineV1View } from './views.js';

const emptyBody = z.strictObject({});

/**
 * v1 lets the machine's accessors power it too: that is what adding an accessor is for (and how a
 * time-boxed share lets a teammate start the sharer's machine).
 */
function actedOn(context: V1Context, verb: string): MachineRecord {
  const machine = v1Machine(context);
  const { user } = context;
  if (machine.ownerId !== user.id && !machine.accessorIds.has(user.id)) {
    throw forbidden(`Only the machine's owner or its accessors can ${verb} it`);
  }
  parseV1Body(emptyBody, context.body);
  return machine;
}

/** The machine and the event the action just queued (the newest one). */
function answer(machine: MachineRecord): Reply {
  const event = machine.events[0];
  return json({ data: machineV1View(machine), ...(event ? { event: eventV1View(machine.id, event) } : {}) });
}

function start(context: V1Context): Reply {
  const machine = actedOn(context, 'start');
  if (!requestStart(context.core, machine)) {
    throw badRequest(
      machine.queue.length > 0
        ? `Machine ${machine.id} is currently starting`
        : `Machine ${machine.id} is already running (state ${machine.state})`,
    );
  }
  return answer(machine);
}

function stop(context: V1Context): Reply {
  const machine = actedOn(context, 'stop');
  if (!requestStop(context.core, machine)) {
    throw badRequest(
      machine.queue.length > 0
        ? `Machine ${machine.id} is currently stopping`
        : `Machine ${machine.id} is already off`,
    );
  }
  return answer(machine);
}

function restart(context: V1Context): Reply {
  const machine = actedOn(context, 'restart');
  requestRestart(context.core, machine);
  return answer(machine);
}

export const v1MachineActionRoutes: readonly V1Route[] = [
  { method: 'PATCH', path: '/machines/:id/start', handle: start },
  { method: 'PATCH', path: '/machines/:id/stop', handle: stop },
  { method: 'PATCH', path: '/machines/:id/restart', handle: restart },
];
