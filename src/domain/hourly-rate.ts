// Hourly rates, where the bot can know them: a machine's own rate (v1 lists it; the contract's only
// through the machine's utilization, one call), else the rate of a machine of the same type the key
// can see, else Paperspace's published list price (list-prices.ts), which is always shown as such.

import type { PaperspaceClient } from '../paperspace/client.js';
import type { Machine } from '../paperspace/schemas.js';
import { billingMonthAt } from './billing-month.js';
import { listPriceOf } from './list-prices.js';

/** A rate and where it came from, so a person is told when it is a list price rather than the account's. */
export interface HourlyRate {
  /** Dollars an hour, as the API writes rates ("0.51"). */
  dollars: string;
  /** `account`: read from the account (the machine itself or one of its type); `list-price`: published. */
  basis: 'account' | 'list-price';
}

/** v1 lists a machine's rate (mapped to "$0.51 / h"); the contract's usageRate only names the plan. */
const LISTED_RATE = /^\$(\d+(?:\.\d+)?) \/ h$/;

/** The rate a machine's listing carries (v1), without a call; undefined when it carries none (contract). */
export function listedHourlyRate(machine: Pick<Machine, 'usageRate'>): string | undefined {
  return LISTED_RATE.exec(machine.usageRate)?.[1];
}

/** The published list price of a type as a rate; undefined for a type the list does not have. */
export function listPriceRate(machineType: string): HourlyRate | undefined {
  const dollars = listPriceOf(machineType);
  return dollars === undefined ? undefined : { dollars, basis: 'list-price' };
}

/**
 * The rate a machine of this type would cost the key's account: a machine of the type the key can
 * see, else the list price; null when neither is known. A failed read of the account's rate falls
 * back to the list price too: an approver is better served by a labelled list price than by nothing.
 */
export async function estimatedHourlyRate(
  client: PaperspaceClient,
  machineType: string,
  now: number,
): Promise<HourlyRate | null> {
  const machines = await client.machines.list().catch(() => []);
  const sameType = machines.find((machine) => machine.machineType === machineType);
  const own =
    sameType === undefined ? undefined : await hourlyRateOf(client, sameType, now).catch(() => undefined);
  if (own !== undefined) return { dollars: own, basis: 'account' };
  return listPriceRate(machineType) ?? null;
}

/**
 * The machine's own hourly rate in dollars, as text ("0.51"): read from the listed machine when the API
 * put it there (v1), else from its utilization (one call).
 */
export async function hourlyRateOf(client: PaperspaceClient, machine: Machine, now: number): Promise<string> {
  const listed = listedHourlyRate(machine);
  if (listed !== undefined) return listed;
  const usage = await client.machines.utilization(machine.id, billingMonthAt(now));
  return usage.utilization.hourlyRate;
}

/**
 * The machine's own rate as read from the account, for a card or an unfurl: undefined when it cannot be
 * read, so the caller shows the list price instead, or nothing, rather than failing.
 */
export async function ownHourlyRate(
  client: PaperspaceClient,
  machine: Machine,
  now: number,
): Promise<HourlyRate | undefined> {
  const dollars = await hourlyRateOf(client, machine, now).catch(() => undefined);
  return isRate(dollars) ? { dollars, basis: 'account' } : undefined;
}

/**
 * The hourly rate of each machine type among `machines` (a list already fetched): none read on v1,
 * whose list carries them, and one utilization read per type on the contract, never one per machine.
 * A type whose rate cannot be read has its list price, or is left out when it has none.
 */
export async function hourlyRatesByType(
  client: PaperspaceClient,
  machines: readonly Machine[],
  now: number,
): Promise<Map<string, HourlyRate>> {
  const oneOfEach = new Map<string, Machine>();
  for (const machine of machines) {
    if (!oneOfEach.has(machine.machineType)) oneOfEach.set(machine.machineType, machine);
  }
  const rates = await Promise.all(
    [...oneOfEach].map(async ([type, machine]) => {
      const rate = (await ownHourlyRate(client, machine, now)) ?? listPriceRate(type);
      return [type, rate] as const;
    }),
  );
  return new Map(rates.filter((entry): entry is [string, HourlyRate] => entry[1] !== undefined));
}

/**
 * The hourly rate (dollars) of each machine type the key has a machine of, as read from the account:
 * one rate read per type (none on v1, whose list carries them). A type whose rate cannot be read is
 * left out, not guessed.
 */
export async function knownHourlyRates(client: PaperspaceClient, now: number): Promise<Map<string, number>> {
  const rates = await hourlyRatesByType(client, await client.machines.list(), now);
  const known = [...rates].filter(([, rate]) => rate.basis === 'account');
  return new Map(known.map(([type, rate]) => [type, Number(rate.dollars)]));
}

function isRate(dollars: string | undefined): dollars is string {
  return dollars !== undefined && dollars.trim() !== '' && Number.isFinite(Number(dollars));
}
