// What a listener asks after a start, stop, restart, create or `/ps wait`: keep polling this machine
// until it reaches a state, then post the completion. A watch is a row in the store; the watches job
// (jobs.ts) polls it on the scheduler's tick, on whichever replica holds its lease.
import type { Store } from '../../store/store.js';
import type { MachineWatcher } from '../../store/watch-types.js';

export type { MachineWatcher, WatchRequest } from '../../store/watch-types.js';

export const DEFAULT_WATCH_TIMEOUT_MS = 30 * 60_000;

export function createMachineWatcher(deps: {
  store: Pick<Store, 'watches'>;
  now: () => number;
}): MachineWatcher {
  return {
    async watch(request) {
      const at = deps.now();
      // A newer request about the same card replaces the older watch of it, in the store and atomically
      // (two clicks may reach two replicas at once): one card tells one story, and a Start clicked twice
      // is answered once. An operation also supersedes every older watch of the machine (the caller
      // redraws their cards).
      return deps.store.watches.create({
        teamId: request.user.teamId,
        userId: request.user.userId,
        machineId: request.machineId,
        machineName: request.machineName,
        targetState: request.targetState,
        channel: request.channel,
        messageTs: request.messageTs ?? null,
        threadTs: request.threadTs ?? null,
        lastState: request.initialState ?? null,
        eventId: request.eventId ?? null,
        createdAt: at,
        deadlineAt: at + (request.timeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS),
        ...(request.operation === undefined
          ? {}
          : { supersedes: `superseded by a newer ${request.operation} of the machine` }),
      });
    },
  };
}
