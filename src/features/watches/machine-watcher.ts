// What a listener asks of the scheduler after a start, stop, restart, create or `/ps wait`: keep
// polling this machine until it reaches a state, then post the completion. The scheduler
// (src/scheduler/) implements it; listeners only see this interface.
import type { WaitableState } from '../../paperspace/constants.js';
import type { SlackUser } from '../../store/slack-user.js';
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
