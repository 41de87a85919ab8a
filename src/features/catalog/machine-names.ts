// Replies name machines, not only their ids ("assigned to gpu-1", not "assigned to psada002"). The
// names come from one list call with the person's key; when it fails, or a machine is not visible to
// them, the id stands alone rather than the reply failing.
import type { Logger } from 'pino';
import type { PaperspaceClient } from '../../paperspace/client.js';

export async function machineNames(client: PaperspaceClient, logger: Logger): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  try {
    for (const machine of await client.machines.list({}, { maxRetries: 0 }))
      names.set(machine.id, machine.name);
  } catch (error) {
    logger.warn({ err: error }, 'could not name machines; showing ids');
  }
  return names;
}
