// What running costs, and the one rounding rule for showing it. Paperspace bills compute by the hour
// at the machine's hourly rate, and storage by the month for the part of it the disk existed (the
// contract's utilization; v1's estimate has the same shape). /ps usage, /ps spend, the digest, the
// cost alerts and an approval's rate all count money here.
//
// Every amount a person reads is rounded to cents where it is computed, and every total is the sum of
// those rounded parts: shown parts always add up to the shown total ($0.02 + $0.00 is $0.02, never
// the $0.03 that rounding an exact sum once can give).
import type { MachineUtilization } from '../paperspace/schemas.js';
import { daysInMonth } from './billing-month.js';

/** An amount in dollars rounded to whole cents, the precision Paperspace bills and people read. */
export function roundToCents(dollars: number): number {
  return Math.round(dollars * 100) / 100;
}

/** The sum of amounts already in cents, in cents (adding in whole cents, so no float drift shows). */
export function sumOfCents(amounts: Iterable<number>): number {
  let cents = 0;
  for (const amount of amounts) cents += Math.round(amount * 100);
  return cents / 100;
}

/** Dollars as Paperspace sends them (`"0.51"`); undefined when not a number. */
function dollarsOf(amount: string): number | undefined {
  if (amount.trim() === '') return undefined;
  const value = Number(amount);
  return Number.isFinite(value) ? value : undefined;
}

/** What `seconds` of running cost at `hourlyRate` dollars an hour, unrounded: round what is shown. */
export function costAtRate(hourlyRate: number, seconds: number): number {
  return (hourlyRate * Math.max(0, seconds)) / 3600;
}

/** A billing month's figures for one machine, as Paperspace would bill them (upgrades aside). */
export interface UsageCost {
  secondsUsed: number;
  hours: number;
  /** Dollars an hour; undefined when Paperspace sent a rate that is not a number. */
  hourlyRate: number | undefined;
  /** hours × hourly rate, in cents; undefined without an hourly rate. */
  compute: number | undefined;
  /** Dollars a month for the disk; undefined when unreadable. */
  monthlyStorageRate: number | undefined;
  /** Days of the month the disk existed (the month's length when it existed all month). */
  storageDays: number;
  /** Days in the billing month; 0 when the month could not be read (storage then counts whole). */
  monthDays: number;
  /** The monthly storage rate × the share of the month the disk existed, in cents. */
  storage: number | undefined;
  /** compute + storage as shown (each in cents); undefined if a rate is missing. */
  total: number | undefined;
}

export function usageCost(utilization: MachineUtilization): UsageCost {
  const { secondsUsed, billingMonth, hourlyRate } = utilization.utilization;
  const hourly = dollarsOf(hourlyRate);
  const monthly = dollarsOf(utilization.storageUtilization.monthlyRate);
  // Storage is charged for the part of the month the disk existed: nothing in a month before the
  // machine was created, a share of the rate in the month it was created.
  const monthDays = daysInMonth(billingMonth);
  const storageDays = Math.min(monthDays, utilization.storageUtilization.secondsUsed / 86_400);
  const storageShare = monthDays > 0 ? storageDays / monthDays : 1;
  const compute = hourly === undefined ? undefined : roundToCents(costAtRate(hourly, secondsUsed));
  const storage = monthly === undefined ? undefined : roundToCents(monthly * storageShare);
  return {
    secondsUsed,
    hours: secondsUsed / 3600,
    hourlyRate: hourly,
    compute,
    monthlyStorageRate: monthly,
    storageDays: monthDays > 0 ? storageDays : 0,
    monthDays,
    storage,
    total: compute === undefined || storage === undefined ? undefined : sumOfCents([compute, storage]),
  };
}
