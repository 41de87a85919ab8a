// What a listener asks after a start, stop, restart, create or `/ps wait`: keep polling this machine
// until it reaches a state, then post the completion. A watch is a row in the store; the watches job
// (jobs.ts) polls it on the scheduler's tick, on whichever replica holds its lease.
import type { WaitableState } from '../../paperspace/constants.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { Watch } from '../../store/watch-types.js';

export interface WatchRequest {
  /** Whose key polls; the completion mentions them. */
  user: SlackUser;
  machineId: string;
  machineName: string;
  targetState: WaitableState;
  /** Where the card is; the completion goes into its thread. */
  channel: string;
  /** The card message to update in place (absent when the card could not be posted as a message). */
  messageTs?: string;
  threadTs?: string;
  /** Default 30 minutes. */
  timeoutMs?: number;
  /** The state the machine was in when the watch began, so the first change is shown. */
  initialState?: string;
}

export interface MachineWatcher {
  watch(request: WatchRequest): Promise<Watch>;
}

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
      // is answered once.
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
        createdAt: at,
        deadlineAt: at + (request.timeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS),
      });
    },
  };
}
