// Machines in v1: the MachinesResource the features use, over `/machines`, `/machine-events`,
// `/machines/{id}/accessors` and `/machine-availability`.
import { PaperspaceBadRequestError, PaperspaceError, PaperspaceNotFoundError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import {
  askAvailability,
  askCreate,
  askDestroy,
  askSetAccess,
  askUpdate,
  askUtilization,
} from '../machine-requests.js';
import { machineSubject, segment, validMachineId } from '../path-ids.js';
import {
  type MachineListFilters,
  machineListFiltersSchema,
  v1AvailabilityParamsSchema,
} from '../request-params/machine-params.js';
import { parseRequest } from '../request-params/parse-request.js';
import type { MachinesResource } from '../resources.js';
import type { Machine, MachineEvent, MachineWithEvents } from '../schemas.js';
import { sendChange } from '../send-change.js';
import { waitForState } from '../wait-for-state.js';
import type { V1Context } from './context.js';
import { createBodyOf, createParameterNamed, updateBodyOf } from './machine-bodies.js';
import { newestFirst } from './machine-events.js';
import { powerMachine } from './machine-power.js';
import { eventFromV1, machineFromV1, regionToV1 } from './mapping.js';
import { v1All, v1ItemPages, v1Pages } from './pages.js';
import { estimateUtilization, monthBounds } from './usage-estimate.js';
import {
  v1AccessorSchema,
  v1AvailabilitySchema,
  v1EventSchema,
  v1MachineActionSchema,
  v1MachineSchema,
  v1PageSchema,
} from './wire.js';

/** How many of a machine's newest events show includes: enough for its card and for waitForState. */
const SHOWN_EVENTS = 20;
const eventPageSchema = v1PageSchema(v1EventSchema);

export function createV1MachinesResource(context: V1Context): MachinesResource {
  const { core, url } = context;

  async function get(id: string, options?: RequestOptions): Promise<Machine> {
    const response = await core.send({
      ...options,
      operation: 'machines.show',
      action: 'show this machine',
      method: 'GET',
      url: url(`/machines/${segment(id)}`),
      credential: 'bearerKey',
      schema: v1MachineSchema,
      idempotent: true,
      subject: machineSubject(id),
    });
    return machineFromV1(response.data);
  }

  async function show(machineId: string, options?: RequestOptions): Promise<MachineWithEvents> {
    const id = validMachineId(machineId, 'machines.show', 'show this machine');
    // v1 keeps events apart from the machine: the newest page of them is what the card and
    // waitForState read, and a failed action's `error` arrives through it.
    const [machine, events] = await Promise.all([
      get(id, options),
      core.send({
        ...options,
        operation: 'machines.events',
        action: 'list the events of this machine',
        method: 'GET',
        url: url('/machine-events'),
        query: { machineId: id, limit: SHOWN_EVENTS, orderBy: 'dtCreated', order: 'desc' },
        credential: 'bearerKey',
        schema: eventPageSchema,
        idempotent: true,
        subject: machineSubject(id),
      }),
    ]);
    return { ...machine, events: newestFirst(events.data.items.map(eventFromV1)) };
  }

  /** Every machine matching the contract's filters; v1 filters only some of them, the rest here. */
  async function matching(filters: MachineListFilters, options?: RequestOptions): Promise<Machine[]> {
    const { limit, skip, machineId, ...fields } = parseRequest(
      machineListFiltersSchema,
      filters,
      'machines.list',
      'list machines',
    );
    let machines: Machine[];
    if (machineId !== undefined) {
      try {
        machines = [await get(machineId, options)];
      } catch (error) {
        if (error instanceof PaperspaceNotFoundError) return [];
        throw error;
      }
    } else {
      const query = {
        ...(fields.name === undefined ? {} : { name: fields.name }),
        ...(fields.region === undefined ? {} : { region: regionToV1(fields.region) }),
        ...(fields.agentType === undefined ? {} : { agentType: fields.agentType }),
      };
      machines = await v1All(
        context,
        {
          ...options,
          operation: 'machines.list',
          action: 'list machines',
          path: '/machines',
          query,
          item: v1MachineSchema,
        },
        machineFromV1,
      );
    }
    const wanted = Object.entries(fields).filter(([, value]) => value !== undefined);
    const kept = machines.filter((machine) =>
      wanted.every(([field, value]) => String((machine as Record<string, unknown>)[field]) === String(value)),
    );
    const from = skip ?? 0;
    return kept.slice(from, limit === undefined ? undefined : from + limit);
  }

  /**
   * The machine's events the estimate of `billingMonth` needs: v1 lists them newest first, so paging
   * stops at the first page that reaches back before the month began. That page's older events are
   * kept: the last one before the month says whether the machine was running when it began. Reading
   * the whole history would cost a page per 120 events for a machine that has run for years.
   */
  async function eventsSince(id: string, billingMonth: string, options?: RequestOptions) {
    const [monthStart] = monthBounds(billingMonth);
    const events: MachineEvent[] = [];
    const pages = v1ItemPages(context, {
      ...options,
      operation: 'machines.events',
      action: 'list the events of this machine',
      path: '/machine-events',
      query: { machineId: id, orderBy: 'dtCreated', order: 'desc' },
      item: v1EventSchema,
    });
    for await (const page of pages) {
      events.push(...page.map(eventFromV1));
      if (page.some((event) => Date.parse(event.dtCreated) < monthStart)) break;
    }
    return events;
  }

  return {
    async create(params, options = {}) {
      const { template, ...requestOptions } = options;
      const { request, fields } = askCreate(params, template, 'v1');
      const response = await core
        .send({
          ...requestOptions,
          ...request,
          method: 'POST',
          url: url('/machines'),
          body: createBodyOf(fields),
          credential: 'bearerKey',
          schema: v1MachineActionSchema,
          // A create sent twice makes two machines, and two bills.
          idempotent: false,
        })
        .catch((error: unknown) => {
          if (error instanceof PaperspaceBadRequestError)
            error.parameter = createParameterNamed(error.serverMessage);
          throw error;
        });
      return machineFromV1(response.data.data);
    },

    start: (machineId, options) => powerMachine(context, 'start', machineId, options),
    stop: (machineId, options) => powerMachine(context, 'stop', machineId, options),
    restart: (machineId, options) => powerMachine(context, 'restart', machineId, options),

    async destroy(machineId, params = {}, options) {
      const { id, fields, request } = askDestroy(machineId, params);
      // v1 keeps public IPs as their own resource: the address is read before the machine goes.
      const publicIp = fields.releasePublicIp ? (await get(id, options)).publicIpAddress : null;
      await sendChange(core, {
        ...options,
        ...request,
        method: 'DELETE',
        url: url(`/machines/${segment(id)}`),
        credential: 'bearerKey',
      });
      if (!publicIp) return;
      try {
        await sendChange(core, {
          ...options,
          operation: 'publicIps.release',
          action: `release public IP ${publicIp}`,
          method: 'DELETE',
          url: url(`/public-ips/${segment(publicIp)}`),
          credential: 'bearerKey',
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new PaperspaceError(
          `Machine ${id} was destroyed, but its public IP ${publicIp} was not released: ${reason} ` +
            'Release it in the Paperspace console.',
          'machines.destroy',
          { cause: error },
        );
      }
    },

    async update(machineId, params, options) {
      const { id, fields, request } = askUpdate(machineId, params);
      await sendChange(core, {
        ...options,
        ...request,
        method: 'PUT',
        url: url(`/machines/${segment(id)}`),
        body: updateBodyOf(fields),
        credential: 'bearerKey',
      });
    },

    list: (filters = {}, options) => matching(filters, options),

    listAll(filters = {}, options) {
      // Validated now, so a bad filter fails at the call rather than at the first iteration.
      parseRequest(machineListFiltersSchema, filters, 'machines.list', 'list machines');
      const all = async function* () {
        if (Object.values(filters).some((value) => value !== undefined)) {
          yield* await matching(filters, options);
          return;
        }
        for await (const machine of v1Pages(context, {
          ...options,
          operation: 'machines.list',
          action: 'list machines',
          path: '/machines',
          item: v1MachineSchema,
        }))
          yield machineFromV1(machine);
      };
      return all();
    },

    show,

    async setAccess(machineId, params, options) {
      const { id, fields, request } = askSetAccess(machineId, params);
      const { userId, enableAccess } = fields;
      await sendChange(core, {
        ...options,
        ...request,
        method: enableAccess ? 'POST' : 'DELETE',
        url: url(
          enableAccess
            ? `/machines/${segment(id)}/accessors`
            : `/machines/${segment(id)}/accessors/${segment(userId)}`,
        ),
        ...(enableAccess ? { body: { userId } } : {}),
        credential: 'bearerKey',
      });
    },

    async event(eventId, options) {
      const action = `follow machine event ${eventId}`;
      const response = await core.send({
        ...options,
        operation: 'machines.event',
        action,
        method: 'GET',
        url: url(`/machine-events/${segment(eventId)}`),
        credential: 'bearerKey',
        schema: v1EventSchema,
        idempotent: true,
        subject: { kind: 'machine event', id: eventId },
      });
      return eventFromV1(response.data);
    },

    async accessors(machineId, options) {
      const action = 'list who has access to this machine';
      const id = validMachineId(machineId, 'machines.accessors', action);
      const accessors = await v1All(
        context,
        {
          ...options,
          operation: 'machines.accessors',
          action,
          path: `/machines/${segment(id)}/accessors`,
          item: v1AccessorSchema,
        },
        (accessor) => accessor,
      );
      // A removed accessor may still be listed, with the date it was removed.
      return accessors.filter((accessor) => !accessor.dtDeleted).map((accessor) => accessor.user.id);
    },

    async utilization(machineId, billingMonth, options) {
      const { query, request } = askUtilization(machineId, billingMonth, 'estimate');
      const [machine, events] = await Promise.all([
        core.send({
          ...options,
          ...request,
          method: 'GET',
          url: url(`/machines/${segment(query.machineId)}`),
          credential: 'bearerKey',
          schema: v1MachineSchema,
          idempotent: true,
        }),
        eventsSince(query.machineId, query.billingMonth, options),
      ]);
      return estimateUtilization(query, machine.data, events, context.now());
    },

    async availability(region, machineType, options) {
      const { query, request } = askAvailability(v1AvailabilityParamsSchema, region, machineType);
      const response = await core.send({
        ...options,
        ...request,
        method: 'GET',
        url: url('/machine-availability'),
        query: { region: regionToV1(query.region), machineType: query.machineType },
        credential: 'bearerKey',
        schema: v1AvailabilitySchema,
        idempotent: true,
      });
      return response.data;
    },

    waitForState: (machineId, state, options) =>
      waitForState({ show, sleep: context.sleep, now: context.now }, machineId, state, options),
  };
}
