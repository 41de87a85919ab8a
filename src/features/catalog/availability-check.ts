// /ps availability: which dedicated GPU types can be requested in which region now. The API answers
// one region and type per request, so every combination the person left open is asked for, a few at a
// time (parallel enough to be quick, few enough not to trip a rate limit). One failed cell is shown as
// failed; only a rejected key, which fails every cell the same way, fails the whole answer.
import type { PaperspaceClient } from '../../paperspace/client.js';
import {
  DEDICATED_GPU_MACHINE_TYPES,
  type DedicatedGpuMachineType,
  REGIONS,
  type Region,
} from '../../paperspace/constants.js';
import { PaperspaceAuthenticationError } from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';

export interface AvailabilityQuery {
  /** Null: every region. */
  region: Region | null;
  /** Null: every dedicated GPU type. */
  machineType: DedicatedGpuMachineType | null;
}

export interface AvailabilityCell {
  region: Region;
  machineType: DedicatedGpuMachineType;
  /** 'error' when the check itself failed, which is not the same as "not available". */
  available: boolean | 'error';
}

export const DEFAULT_AVAILABILITY_CONCURRENCY = 5;

export async function checkAvailability(
  client: PaperspaceClient,
  query: AvailabilityQuery,
  options: { concurrency?: number; request?: RequestOptions } = {},
): Promise<AvailabilityCell[]> {
  const regions = query.region === null ? REGIONS : [query.region];
  const machineTypes = query.machineType === null ? DEDICATED_GPU_MACHINE_TYPES : [query.machineType];
  const combinations = regions.flatMap((region) =>
    machineTypes.map((machineType) => ({ region, machineType })),
  );

  const failures: unknown[] = [];
  const cells = await mapWithConcurrency(
    combinations,
    options.concurrency ?? DEFAULT_AVAILABILITY_CONCURRENCY,
    async ({ region, machineType }): Promise<AvailabilityCell> => {
      try {
        const { available } = await client.machines.availability(region, machineType, options.request);
        return { region, machineType, available };
      } catch (error) {
        failures.push(error);
        return { region, machineType, available: 'error' };
      }
    },
  );
  const rejectedKey = failures.find((error) => error instanceof PaperspaceAuthenticationError);
  if (rejectedKey !== undefined && failures.length === cells.length) throw rejectedKey;
  return cells;
}

/** Runs `task` over `items` with at most `limit` at once; results keep the order of `items`. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError('concurrency must be a whole number, 1 or more');
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
