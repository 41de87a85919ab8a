// The estimated hourly rate of a machine type. Paperspace publishes rates only through a machine's
// utilization, so the estimate is the rate of a machine of the same type the requester's key can
// see; none, and the approver is told the rate is unknown rather than shown a guess.
import type { PaperspaceClient } from '../../paperspace/client.js';
import { billingMonthAt } from '../machines/machine-operations.js';

export async function estimatedHourlyRate(
  client: PaperspaceClient,
  machineType: string,
  now: number,
): Promise<string | null> {
  const machines = await client.machines.list();
  const sameType = machines.find((machine) => machine.machineType === machineType);
  if (sameType === undefined) return null;
  const usage = await client.machines.utilization(sameType.id, billingMonthAt(now));
  return usage.utilization.hourlyRate;
}
