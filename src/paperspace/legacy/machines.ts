// Machines: every machine operation of the contract, plus listAll and waitForState built on them.
import { MACHINE_LIST_PAGE_SIZE } from '../constants.js';
import { PaperspaceError } from '../errors.js';
import type { QueryValue, RequestOptions } from '../http.js';
import {
  askAvailability,
  askCreate,
  askDestroy,
  askPower,
  askSetAccess,
  askUpdate,
  askUtilization,
} from '../machine-requests.js';
import { machineSubject, segment, validMachineId } from '../path-ids.js';
import {
  availabilityParamsSchema,
  type MachineListFilters,
  machineListFiltersSchema,
} from '../request-params/machine-params.js';
import { parseRequest } from '../request-params/parse-request.js';
import type { MachinesResource, PowerReceipt } from '../resources.js';
import {
  acknowledgementSchema,
  availabilitySchema,
  type Machine,
  type MachineWithEvents,
  machineListBody,
  machineSchema,
  machineUtilizationSchema,
  machineWithEventsBody,
} from '../schemas.js';
import { sendChange } from '../send-change.js';
import { waitForState } from '../wait-for-state.js';
import type { ResourceContext } from './context.js';

const START_STOP_HINT = "Only the machine's owner can start, stop or restart it.";
// Built once: zod compiles a schema on its first parse, which costs far more than the parse itself.
const listAllFiltersSchema = machineListFiltersSchema.omit({ limit: true, skip: true });

export function createMachinesResource(context: ResourceContext): MachinesResource {
  const { core, restUrl } = context;

  /** start, stop and restart differ only in path and in whether repeating them is harmless. */
  async function powerAction(
    verb: 'start' | 'stop' | 'restart',
    machineId: string,
    options?: RequestOptions,
  ): Promise<PowerReceipt> {
    const { id, request } = askPower(verb, machineId);
    await core.send({
      ...options,
      ...request,
      method: 'POST',
      url: restUrl(`/machines/${segment(id)}/${verb}`),
      credential: 'apiKey',
      schema: acknowledgementSchema,
      anySuccessBody: true,
      permissionHint: START_STOP_HINT,
    });
    return { eventId: null };
  }

  async function list(filters: MachineListFilters = {}, options?: RequestOptions): Promise<Machine[]> {
    return listValid(
      parseRequest(machineListFiltersSchema, filters, 'machines.list', 'list machines'),
      options,
    );
  }

  /** One getMachines call with filters already checked: listAll checks them once for all its pages. */
  async function listValid(query: Record<string, QueryValue>, options?: RequestOptions): Promise<Machine[]> {
    const response = await core.send({
      ...options,
      operation: 'machines.list',
      action: 'list machines',
      method: 'GET',
      url: restUrl('/machines/getMachines'),
      query,
      credential: 'apiKey',
      schema: machineListBody,
      idempotent: true,
    });
    return response.data;
  }

  async function show(machineId: string, options?: RequestOptions): Promise<MachineWithEvents> {
    const action = 'show this machine';
    const id = validMachineId(machineId, 'machines.show', action);
    const response = await core.send({
      ...options,
      operation: 'machines.show',
      action,
      method: 'GET',
      url: restUrl('/machines/getMachinePublic'),
      query: { machineId: id },
      credential: 'apiKey',
      schema: machineWithEventsBody,
      idempotent: true,
      subject: machineSubject(id),
    });
    return response.data;
  }

  return {
    async create(params, options = {}) {
      const { template, ...requestOptions } = options;
      const { request, fields } = askCreate(params, template, 'contract');
      const response = await core.send({
        ...requestOptions,
        ...request,
        method: 'POST',
        url: restUrl('/machines/createSingleMachinePublic'),
        body: fields,
        credential: 'apiKey',
        schema: machineSchema,
        idempotent: false,
      });
      return response.data;
    },

    start: (machineId, options) => powerAction('start', machineId, options),
    stop: (machineId, options) => powerAction('stop', machineId, options),
    restart: (machineId, options) => powerAction('restart', machineId, options),

    async destroy(machineId, params = {}, options) {
      const { id, fields, request } = askDestroy(machineId, params);
      // The contract does not say whether releasePublicIp travels in the query or the body; like
      // every other POST parameter of the contract it is sent in the JSON body.
      await sendChange(core, {
        ...options,
        ...request,
        method: 'POST',
        url: restUrl(`/machines/${segment(id)}/destroyMachine`),
        body: fields,
        credential: 'apiKey',
      });
    },

    async update(machineId, params, options) {
      const { id, fields, request } = askUpdate(machineId, params);
      await sendChange(core, {
        ...options,
        ...request,
        method: 'POST',
        url: restUrl(`/machines/${segment(id)}/updateMachinePublic`),
        body: fields,
        credential: 'apiKey',
      });
    },

    list,

    listAll(filters = {}, options) {
      // Validated now, so a bad filter fails at the call rather than at the first iteration.
      return pages(parseRequest(listAllFiltersSchema, filters, 'machines.list', 'list machines'), options);
    },

    show,

    async setAccess(machineId, params, options) {
      const { id, fields, request } = askSetAccess(machineId, params);
      await sendChange(core, {
        ...options,
        ...request,
        method: 'POST',
        url: restUrl(`/machines/${segment(id)}/setMachineAccess`),
        body: fields,
        credential: 'apiKey',
      });
    },

    async event(eventId) {
      throw new PaperspaceError(
        `Cannot follow machine event ${eventId}: the contract's API has no such call; read the machine's events instead.`,
        'machines.event',
      );
    },

    async accessors(_machineId) {
      throw new PaperspaceError(
        "Cannot list who has access to this machine: the contract's API has no such call.",
        'machines.accessors',
      );
    },

    async utilization(machineId, billingMonth, options) {
      const { query, request } = askUtilization(machineId, billingMonth, 'read');
      const response = await core.send({
        ...options,
        ...request,
        method: 'GET',
        url: restUrl('/machines/getUtilization'),
        query,
        credential: 'apiKey',
        schema: machineUtilizationSchema,
        idempotent: true,
      });
      return response.data;
    },

    async availability(region, machineType, options) {
      const { query, request } = askAvailability(availabilityParamsSchema, region, machineType);
      const response = await core.send({
        ...options,
        ...request,
        method: 'GET',
        url: restUrl('/machines/getAvailability'),
        query,
        credential: 'apiKey',
        schema: availabilitySchema,
        idempotent: true,
      });
      return response.data;
    },

    waitForState: (machineId, state, options) =>
      waitForState({ show, sleep: context.sleep, now: context.now }, machineId, state, options),
  };

  async function* pages(
    filters: Record<string, QueryValue>,
    options?: RequestOptions,
  ): AsyncGenerator<Machine> {
    const seen = new Set<string>();
    for (let skip = 0; ; skip += MACHINE_LIST_PAGE_SIZE) {
      const page = await listValid({ ...filters, limit: MACHINE_LIST_PAGE_SIZE, skip }, options);
      let fresh = 0;
      for (const machine of page) {
        // Offset paging shifts when machines are created meanwhile; never yield one machine twice.
        if (seen.has(machine.id)) continue;
        seen.add(machine.id);
        fresh++;
        yield machine;
      }
      // A short page is the last; a full page of machines already seen means skip is being ignored.
      if (page.length < MACHINE_LIST_PAGE_SIZE || fresh === 0) return;
    }
  }
}
