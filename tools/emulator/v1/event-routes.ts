// Machine events: GET /machine-events/{id} follows one operation, GET /machine-events lists them
// (optionally of one machine). Events progress with their machine on the emulator's clock, so
// reading one settles its machine first; a deleted machine's events stay readable.
import { visibleMachines } from '../auth.js';
import { notFound } from '../errors.js';
import { settleMachine } from '../lifecycle.js';
import type { EventRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import { paginate } from './paging.js';
import type { V1Context, V1Route } from './router.js';
import { eventV1View } from './views.js';

interface FoundEvent {
  readonly machineId: string;
  readonly event: EventRecord;
}

/** Events of the machines the caller can see, and of the deleted machines of their account. */
function visibleEvents({ core, user }: V1Context): FoundEvent[] {
  const now = core.now();
  const caller = { kind: 'user', user } as const;
  const found: FoundEvent[] = [];
  for (const machine of visibleMachines(core, caller)) {
    settleMachine(machine, now);
    for (const event of machine.events) found.push({ machineId: machine.id, event });
  }
  for (const retired of core.world.retiredEvents.values()) {
    if (retired.accountId === user.accountId) found.push(retired);
  }
  return found;
}

function getEvent(context: V1Context): Reply {
  const id = context.params.id ?? '';
  const found = visibleEvents(context).find((candidate) => candidate.event.handle === id);
  if (!found) throw notFound(`Machine event ${id} not found`);
  return json(eventV1View(found.machineId, found.event));
}

function listEvents(context: V1Context): Reply {
  const views = visibleEvents(context).map((found) => eventV1View(found.machineId, found.event));
  return json(
    paginate(
      views,
      context.query,
      {
        orderBy: { dtCreated: (event) => event.dtCreated },
        key: (event) => event.id,
        filters: { machineId: (event, value) => event.machineId === value },
      },
      context.paging,
    ),
  );
}

export const v1EventRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/machine-events', handle: listEvents },
  { method: 'GET', path: '/machine-events/:id', handle: getEvent },
];
