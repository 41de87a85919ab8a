// What a machine request asks, the same in both dialects: the operation, the action its errors name,
// the machine it is about, who may do it, and its parameters checked before anything is sent. Each
// dialect then says how it goes over the wire (method, path, body, credential) and reads the answer.
import type { z } from 'zod';
import type { Dialect } from './dialect.js';
import { machineSubject, validMachineId } from './path-ids.js';
import {
  type CreateMachineParams,
  createMachineParamsSchemaFor,
  type TemplateInfo,
} from './request-params/machine-create-params.js';
import {
  type DestroyMachineParams,
  destroyMachineParamsSchema,
  type SetMachineAccessParams,
  setMachineAccessParamsSchema,
  type UpdateMachineParams,
  updateMachineParamsSchema,
  utilizationParamsSchema,
} from './request-params/machine-params.js';
import { parseRequest } from './request-params/parse-request.js';

const DESTROY_HINT = "Only the machine's owner, or a team administrator for a team machine, can destroy it.";

/**
 * A machine's id checked, and the request about it; nothing is sent when the id is not one. The action
 * says "this machine", not its id: it is read by a person, who knows the machine by its name (the
 * subject keeps the id for the logs).
 */
function aboutMachine(operation: string, action: string, machineId: string) {
  const id = validMachineId(machineId, operation, action);
  return { id, request: { operation, action, subject: machineSubject(id) } };
}

export function askCreate(params: CreateMachineParams, template: TemplateInfo | undefined, dialect: Dialect) {
  const action = `create machine ${params.machineName ?? ''}`.trim();
  const fields = parseRequest(
    createMachineParamsSchemaFor(template, dialect),
    params,
    'machines.create',
    action,
  );
  const request = {
    operation: 'machines.create',
    action,
    permissionHint: 'Only account administrators can create machines.',
  };
  return { request, fields };
}

/** start, stop and restart; the contract makes a repeated start or stop a no-op, a restart twice is two. */
export function askPower(verb: 'start' | 'stop' | 'restart', machineId: string) {
  const { id, request } = aboutMachine(`machines.${verb}`, `${verb} this machine`, machineId);
  return { id, request: { ...request, idempotent: verb !== 'restart' } };
}

export function askDestroy(machineId: string, params: DestroyMachineParams) {
  const { id, request } = aboutMachine('machines.destroy', 'destroy this machine', machineId);
  const fields = parseRequest(destroyMachineParamsSchema, params, request.operation, request.action);
  return { id, fields, request: { ...request, permissionHint: DESTROY_HINT } };
}

export function askUpdate(machineId: string, params: UpdateMachineParams) {
  const { id, request } = aboutMachine('machines.update', 'update this machine', machineId);
  const fields = parseRequest(updateMachineParamsSchema, params, request.operation, request.action);
  return { id, fields, request };
}

export function askSetAccess(machineId: string, params: SetMachineAccessParams) {
  const verb = params?.enableAccess === false ? 'revoke' : 'grant';
  const { id, request } = aboutMachine('machines.setAccess', `${verb} access to this machine`, machineId);
  const fields = parseRequest(setMachineAccessParamsSchema, params, request.operation, request.action);
  return { id, fields, request };
}

/** The contract reads a month's usage; v1 has no such call, and estimates it from the machine's events. */
export function askUtilization(machineId: string, billingMonth: string, how: 'read' | 'estimate') {
  const action = `${how} this machine's usage for ${billingMonth}`;
  const query = parseRequest(
    utilizationParamsSchema,
    { machineId, billingMonth },
    'machines.utilization',
    action,
  );
  const request = {
    operation: 'machines.utilization',
    action,
    subject: machineSubject(query.machineId),
  };
  return { query, request };
}

/** Availability's parameters differ by dialect (v1 names its regions otherwise): its schema is given. */
export function askAvailability<Schema extends z.ZodType>(
  schema: Schema,
  region: string,
  machineType: string,
) {
  const action = `check availability of ${machineType} in ${region}`;
  const query = parseRequest(schema, { region, machineType }, 'machines.availability', action);
  const request = { operation: 'machines.availability', action };
  return { query, request };
}
