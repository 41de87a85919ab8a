// The store keeps a share's machine ids only; its posts show names, so they are looked up with the
// sharer's key (one list call). A machine no longer visible, or a sharer who unlinked, is shown by id.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { Delegation } from '../../store/delegations.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';

export async function sharedMachines(
  clients: PaperspaceClientFactory,
  share: Delegation,
  logger: Logger,
): Promise<{ id: string; name: string }[]> {
  const names = new Map<string, string>();
  try {
    const client = await clients.forUser(share);
    const visible = client ? await client.machines.list({}, { maxRetries: 0 }) : [];
    for (const machine of visible) names.set(machine.id, machine.name);
  } catch (error) {
    logger.warn({ delegationId: share.id, error: describeError(error) }, 'could not name shared machines');
  }
  return share.machineIds.map((id) => ({ id, name: names.get(id) ?? id }));
}
