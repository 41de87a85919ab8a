// The estimated hourly rate of a machine type. Paperspace publishes rates only through a machine's
// utilization, so the estimate is the rate of a machine of the same type the requester's key can
// see; none, and the approver is told the rate is unknown rather than shown a guess.

import type { PaperspaceClient } from '../paperspace/client.js';
import type { Machine } from '../paperspace/schemas.js';
import { billingMonthAt } from './billing-month.js';

/** v1 lists a machine's rate (mapped to "$0.51 / h"); the contract's usageRate only names the plan. */
const LISTED_RATE = /^\$(\d+(?:\.\d+)?) \/ h$/;

export async function estimatedHourlyRate(
  client: PaperspaceClient,
  machineType: string,
  now: number,
): Promise<string | null> {
  const machines = await client.machines.list();
  const sameType = machines.find((machine) => machine.machineType === machineType);
  if (sameType === undefined) return null;
  return hourlyRateOf(client, sameType, now);
}

/**
 * The machine's own hourly rate in dollars, as text ("0.51"): read from the listed machine when the API
 * put it there (v1), else from its utilization (one call).
 */
export async function hourlyRateOf(client: PaperspaceClient, machine: Machine, now: number): Promise<string> {
  const listed = LISTED_RATE.exec(machine.usageRate);
  if (listed?.[1] !== undefined) return listed[1];
  const usage = await client.machines.utilization(machine.id, billingMonthAt(now));
  return usage.utilization.hourlyRate;
}

/**
 * The hourly rate (dollars) of each machine type the key has a machine of: one rate read per type
 * (none on v1, whose list carries them). A type whose rate cannot be read is left out, not guessed.
 */
export async function knownHourlyRates(client: PaperspaceClient, now: number): Promise<Map<string, number>> {
  const oneOfEach = new Map<string, Machine>();
  for (const machine of await client.machines.list()) {
    if (!oneOfEach.has(machine.machineType)) oneOfEach.set(machine.machineType, machine);
  }
  const rates = await Promise.all(
    [...oneOfEach].map(async ([type, machine]) => {
      const rate = Number(await hourlyRateOf(client, machine, now).catch(() => Number.NaN));
      return [type, rate] as const;
    }),
  );
  return new Map(rates.filter(([, rate]) => Number.isFinite(rate)));
}
