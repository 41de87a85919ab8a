// What a listener asks after a start, stop, restart, create or `/ps wait`: keep polling this machine
// until it reaches a state, then post the completion. A watch is a row in the store; the watches
// feature's job (watches/jobs.ts) polls it on the scheduler's tick, on whichever replica holds its
// lease. Starting a watch belongs to the machines feature, below watches: its power and create flows
// start one, and the watches feature (which draws machines' cards) sits above it.
import { UserFacingError } from '../../errors/user-facing-error.js';
import { errorMessage } from '../../slack/block-kit/messages.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { Store } from '../../store/store.js';
import type { MachineWatcher } from '../../store/watch-types.js';
import { WatchSlotsFullError } from '../../store/watches.js';

export type { MachineWatcher, WatchRequest } from '../../store/watch-types.js';

export const DEFAULT_WATCH_TIMEOUT_MS = 30 * 60_000;

/**
 * Active watches one person may have, whatever made them (Start, Stop, Restart, create, /ps wait, a
 * reminder's Stop, an approved request). Each is a machine the scheduler polls and a completion Slack
 * paces at about one a second per channel: without a limit, one person's thousands of watches filled
 * a channel and slowed everyone else's completions.
 */
export const MAX_ACTIVE_WATCHES_PER_PERSON = 50;

/** The person already has MAX_ACTIVE_WATCHES_PER_PERSON active watches: no watch was started. */
export class WatchLimitError extends UserFacingError {
  override name = 'WatchLimitError';
  constructor(readonly active: number) {
    super(`you are already watching ${active} machines, the most one person can at a time`);
  }
}

/**
 * What the person reads when the operation was done but its watch refused: `done` says what happened
 * to the machine ("was asked to start", "was created"). No /ps wait to suggest: it would be refused too.
 */
export function notWatchedMessage(machineName: string, done: string, error: WatchLimitError): SlackMessage {
  return errorMessage(
    `${machineName} ${done}, but no watch was started: ${error.message}, so I will not tell you when it ` +
      'gets there. Check it with /ps show once some of your watches have ended.',
  );
}

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
      // The store enforces the limit in the same transaction (numbered slots): counting here first let
      // concurrent requests of one person past it.
      const created = deps.store.watches.create(
        {
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
          functionExecutionId: request.functionExecutionId ?? null,
          operation: request.operation ?? null,
          pendingSince: request.pending ? at : null,
          ...(request.receivedId === undefined ? {} : { receivedId: request.receivedId }),
          createdAt: at,
          deadlineAt: at + (request.timeoutMs ?? DEFAULT_WATCH_TIMEOUT_MS),
          ...(request.operation === undefined
            ? {}
            : { supersedes: `superseded by a newer ${request.operation} of the machine` }),
        },
        MAX_ACTIVE_WATCHES_PER_PERSON,
      );
      return created.catch((error: unknown) => {
        throw error instanceof WatchSlotsFullError ? new WatchLimitError(error.active) : error;
      });
    },
  };
}
