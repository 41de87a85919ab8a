// The reference of the polling benchmark: how the existing Paperspace chat clients follow a machine,
// one getMachinePublic call per watch per tick, each with the watcher's own key.
import { forEachConcurrently } from '../../src/scheduler/concurrency.js';
import type { SlackUser } from '../../src/store/slack-user.js';
import type { PaperspaceClientFactory } from '../../src/vault/paperspace-clients.js';

export interface PolledWatch {
  user: SlackUser;
  machineId: string;
}

/** As many calls in flight as the scheduler allows itself (8 people x 4 watches). */
const CALLS_AT_ONCE = 32;

export function createPerWatchPoller(deps: {
  clients: PaperspaceClientFactory;
  watches: readonly PolledWatch[];
}): { tick(): Promise<void> } {
  return {
    tick: () =>
      forEachConcurrently(deps.watches, CALLS_AT_ONCE, async (watch) => {
        const client = await deps.clients.forUser(watch.user);
        if (client === undefined) throw new Error(`${watch.user.userId} has no linked key`);
        await client.machines.show(watch.machineId, { maxRetries: 0 });
      }),
  };
}
