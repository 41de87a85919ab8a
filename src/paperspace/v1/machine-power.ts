// Start, stop and restart in v1 (`PATCH /machines/{id}/{verb}`), which name the event that follows.
import { PaperspaceBadRequestError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import { askPower } from '../machine-requests.js';
import { segment } from '../path-ids.js';
import type { PowerReceipt } from '../resources.js';
import type { V1Context } from './context.js';
import { v1MachineActionSchema } from './wire.js';

// v1 lets a machine's accessors power it as well as its owner.
const START_STOP_HINT =
  "Only the machine's owner and the team members given access to it can start, stop or restart it.";
/** v1 answers a repeated start or stop with 400 "currently starting"; the contract made it a no-op. */
const ALREADY_UNDER_WAY =
  /currently (starting|stopping|restarting)|already (started|starting|running|stopped|stopping|off)/i;

export async function powerMachine(
  { core, url }: V1Context,
  verb: 'start' | 'stop' | 'restart',
  machineId: string,
  options?: RequestOptions,
): Promise<PowerReceipt> {
  const { id, request } = askPower(verb, machineId);
  try {
    const response = await core.send({
      ...options,
      ...request,
      method: 'PATCH',
      url: url(`/machines/${segment(id)}/${verb}`),
      body: {},
      credential: 'bearerKey',
      schema: v1MachineActionSchema,
      permissionHint: START_STOP_HINT,
    });
    return { eventId: response.data.event?.id ?? null };
  } catch (error) {
    // The machine is already doing what was asked: answered as the contract's no-op would be.
    if (
      verb !== 'restart' &&
      error instanceof PaperspaceBadRequestError &&
      ALREADY_UNDER_WAY.test(error.serverMessage ?? '')
    )
      return { eventId: null };
    throw error;
  }
}
