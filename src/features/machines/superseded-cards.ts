// The cards of watches that a newer operation on the same machine took over: no watch will update them
// again, so each is redrawn once with the machine as it is now and a line saying when the watching
// stopped and why, instead of waiting (or later claiming a result) for good. A watch started from a row
// of a reminder, alert or digest has no card: its row, which said "stopping", is ended the same way.
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { CreatedWatch, Watch, WatchRequest } from '../../store/watch-types.js';
import type { ListenerWiring } from '../feature-deps.js';
import { machineCardMessage } from './blocks/machine-card.js';
import { supersededNotice, supersededRowLine } from './blocks/machine-replies.js';

export interface Supersession {
  superseded: readonly Watch[];
  /** The machine as the newer operation left it. */
  machine: Machine;
  /** `start`, `stop`, `restart`, `create`: what took over. */
  operation: string;
  /** Who asked for the newer operation. */
  slackUserId: string;
  at: number;
}

/** Never throws: the newer operation has happened, and an old card Slack refuses to edit is only logged. */
export async function redrawSupersededCards(
  web: WebClient,
  { logger, redrawRow }: Pick<ListenerWiring, 'logger' | 'redrawRow'>,
  { superseded, machine, operation, slackUserId, at }: Supersession,
): Promise<void> {
  const notice = supersededNotice(operation, slackUserId, at);
  for (const watch of superseded) {
    if (watch.messageTs === null) {
      await redrawRow(web, watch, supersededRowLine(watch.machineName, operation, slackUserId, at));
      continue;
    }
    try {
      await web.chat.update({
        channel: watch.channel,
        ts: watch.messageTs,
        ...machineCardMessage(machine, { timeline: watch.timeline, notice }),
      });
    } catch (error) {
      logger.warn(
        { watchId: watch.id, error: describeError(error) },
        'could not redraw the card of a superseded watch',
      );
    }
  }
}

/**
 * Watches `machine` (as the operation left it) after a start, stop, restart or create, and redraws the
 * cards of the older watches it takes over. Every button or command that powers a machine and follows
 * it goes through here, so none leaves an older card waiting for a state the machine is no longer
 * heading to. `by` is who asked for the operation, when not the watcher (an approver of a request).
 */
export async function watchOperation(
  deps: Pick<ListenerWiring, 'watcher' | 'logger' | 'redrawRow'>,
  web: WebClient,
  machine: Machine,
  request: Omit<WatchRequest, 'machineId' | 'machineName' | 'operation'> & { operation: string },
  by: string = request.user.userId,
): Promise<CreatedWatch> {
  const created = await deps.watcher.watch({ ...request, machineId: machine.id, machineName: machine.name });
  await redrawSupersededCards(web, deps, {
    superseded: created.superseded,
    machine,
    operation: request.operation,
    slackUserId: by,
    at: created.createdAt,
  });
  return created;
}
