// The contract's create and update parameters, as the bot checks them, written as v1's request
// bodies; and back from a v1 refusal to the create parameter it is about.
import type { z } from 'zod';
import type { createMachineParamsSchemaFor } from '../request-params/machine-create-params.js';
import type { updateMachineParamsSchema } from '../request-params/machine-params.js';
import { regionToV1, snapshotFrequencyToV1 } from './mapping.js';

type CreateFields = z.output<ReturnType<typeof createMachineParamsSchemaFor>>;
type UpdateFields = z.output<typeof updateMachineParamsSchema>;

/**
 * `POST /machines`: v1's names for the contract's create parameters. Fields the contract has and v1
 * does not (billingType, teamId, new-user fields) were refused by the v1 create schema already.
 */
export function createBodyOf(fields: CreateFields) {
  return {
    name: fields.machineName,
    machineType: fields.machineType,
    templateId: fields.templateId,
    region: regionToV1(fields.region),
    diskSize: fields.size,
    networkId: fields.networkId,
    publicIpType: publicIpTypeOf(fields.assignPublicIp, fields.dynamicPublicIp),
    // v1's OpenAPI documents no default for startOnCreate, so it is always sent: the contract's
    // default (true) unless the person said otherwise.
    startOnCreate: fields.startOnCreate ?? true,
    startupScriptId: fields.scriptId,
    accessorIds: fields.userId === undefined ? undefined : [fields.userId],
    takeInitialSnapshot: fields.takeInitialSnapshot,
    restorePointEnabled: fields.markSnapshotAsRestorePoint,
    restorePointFrequency: fields.restorePointFrequency,
    enableNvlink: fields.enableNvlink,
  };
}

/** `PUT /machines/{id}`: what the contract's update parameters change, in v1's settings. */
export function updateBodyOf(fields: UpdateFields) {
  const timeout = fields.shutdownTimeoutInHours;
  return {
    name: fields.machineName,
    ...(timeout === undefined
      ? {}
      : timeout === 0
        ? { autoShutdownEnabled: false }
        : { autoShutdownEnabled: true, autoShutdownTimeout: timeout }),
    autoShutdownForce: fields.shutdownTimeoutForces,
    ...(fields.autoSnapshotFrequency === null
      ? { autoSnapshotEnabled: false }
      : fields.autoSnapshotFrequency === undefined
        ? {}
        : { autoSnapshotFrequency: snapshotFrequencyToV1(fields.autoSnapshotFrequency) }),
    autoSnapshotSaveCount: fields.autoSnapshotSaveCount,
    ...(fields.performAutoSnapshot === undefined ? {} : { autoSnapshotEnabled: fields.performAutoSnapshot }),
    publicIpType: publicIpTypeOf(fields.assignPublicIp, fields.dynamicPublicIp),
  };
}

/** v1's create body fields, by the create parameters they come from. */
const CREATE_PARAMETERS: Readonly<Record<string, string>> = {
  name: 'machineName',
  machineType: 'machineType',
  templateId: 'templateId',
  region: 'region',
  diskSize: 'size',
  networkId: 'networkId',
  publicIpType: 'assignPublicIp',
  startupScriptId: 'scriptId',
  accessorIds: 'userId',
};

/** The create parameter a v1 refusal names first ("diskSize: 77 GB is not offered" is about `size`). */
export function createParameterNamed(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  let first: { parameter: string; at: number } | undefined;
  for (const [wire, parameter] of Object.entries(CREATE_PARAMETERS)) {
    const at = message.search(new RegExp(`\\b${wire}\\b`));
    if (at >= 0 && (first === undefined || at < first.at)) first = { parameter, at };
  }
  return first?.parameter;
}

/** The contract's two public-IP flags as v1's one publicIpType; undefined leaves it as it is. */
function publicIpTypeOf(assign: boolean | undefined, dynamic: boolean | undefined) {
  if (dynamic === true) return 'dynamic';
  if (assign === true) return 'static';
  if (assign === false || dynamic === false) return 'none';
  return undefined;
}
