// /ps availability: which machine types can be requested in which region now. The API answers
// one region and type per request, so every combination the person left open is asked for, a few at a
// time (parallel enough to be quick, few enough not to trip a rate limit). One failed cell is shown as
// failed; only a rejected key, which fails every cell the same way, fails the whole answer.
import type { PaperspaceClient } from '../../paperspace/client.js';
import {
  DEDICATED_GPU_MACHINE_TYPES,
  MACHINE_TYPES,
  REGIONS,
  type Region,
} from '../../paperspace/constants.js';
import { PaperspaceAuthenticationError } from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';
import { REGION_CODE_LIST } from '../../slack/command-language/command-values.js';

export interface AvailabilityQuery {
  /** Null: every region. */
  region: Region | null;
  /** The types to ask about, from availabilityTypes. */
  machineTypes: readonly string[];
}

export interface AvailabilityCell {
  region: Region;
  machineType: string;
  /** 'error' when the check itself failed, which is not the same as "not available". */
  available: boolean | 'error';
}

const DEFAULT_AVAILABILITY_CONCURRENCY = 5;

export type AvailabilityTypes = { ok: true; machineTypes: string[] } | { ok: false; message: string };

/**
 * The types to ask about for what the person typed (null: every one). The contract reports only its
 * dedicated GPU types. v1 has no fixed list: its catalog is what the account's templates offer
 * (`Template.machineTypes`, from availableMachineTypes), so that is what is checked, and a type no
 * template offers is refused by name before any availability request.
 */
export async function availabilityTypes(
  client: PaperspaceClient,
  typed: string | null,
  options: { request?: RequestOptions } = {},
): Promise<AvailabilityTypes> {
  const fixed = client.capabilities.machineTypes === 'fixed';
  const offered = fixed
    ? [...DEDICATED_GPU_MACHINE_TYPES]
    : [...new Set((await client.templates.list({}, options.request)).flatMap((t) => t.machineTypes ?? []))];
  if (typed === null) {
    return offered.length > 0
      ? { ok: true, machineTypes: offered }
      : {
          ok: false,
          message: 'No template of this account offers any machine type, so there is nothing to check.',
        };
  }
  const match = offered.find((type) => type.toLowerCase() === typed.toLowerCase());
  if (match !== undefined) return { ok: true, machineTypes: [match] };
  const list = offered.join(', ');
  if (
    fixed &&
    (MACHINE_TYPES as readonly string[]).some((type) => type.toLowerCase() === typed.toLowerCase())
  )
    return {
      ok: false,
      message: `Machine type ${typed} has no availability report: only dedicated GPU types do (${list}).`,
    };
  return {
    ok: false,
    message: fixed
      ? `Unknown region or machine type "${typed}": regions are ${REGION_CODE_LIST.join(', ')}; machine types are ${list}.`
      : `Unknown region or machine type "${typed}": regions are ${REGION_CODE_LIST.join(', ')}; your templates offer ${list || 'no machine type'}.`,
  };
}

/** Asks every region and type combination left open, a few at a time. */
export async function checkAvailability(
  client: PaperspaceClient,
  query: AvailabilityQuery,
  options: { concurrency?: number; request?: RequestOptions } = {},
): Promise<AvailabilityCell[]> {
  const regions = query.region === null ? REGIONS : [query.region];
  const combinations = regions.flatMap((region) =>
    query.machineTypes.map((machineType) => ({ region, machineType })),
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
