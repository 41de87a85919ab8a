// Slack gives an app 3 seconds to acknowledge a request and 30 minutes to answer it through its
// response_url, so under a burst it is the acks that must not wait. A listener acks and then goes on
// with the work (vault, Paperspace client, the request to Paperspace) on the same event loop that has
// to read, verify and ack the requests still arriving; left alone, every early request's follow-up
// work runs ahead of the later requests' acks (the ack benchmark measured p99 twice the bare app's).
//
// So the ack a listener awaits comes back only when the follow-up queue gives it its turn: while the
// loop keeps acking requests, follow-ups wait; on a turn that acks nothing, one follow-up goes on. A
// follow-up never waits longer than maxWaitMs, so a steady stream of requests cannot starve the work.
import type { App } from '@slack/bolt';

type ReceiverEvent = Parameters<App['processEvent']>[0];

export interface FollowUpQueue {
  /** Resolves when the caller may go on: once a turn of the event loop acks nothing, or after maxWaitMs. */
  turn(): Promise<void>;
  /** Tells the queue that a request was just acked: follow-ups hold back while acks keep coming. */
  acked(): void;
  /** Follow-ups waiting for their turn. */
  waiting(): number;
}

export interface FollowUpQueueOptions {
  /** The longest a follow-up is held back while acks keep coming; default 250. */
  maxWaitMs?: number;
  /** Milliseconds on a monotonic clock; tests pass their own. */
  now?: () => number;
}

const DEFAULT_MAX_WAIT_MS = 250;

export function createFollowUpQueue(options: FollowUpQueueOptions = {}): FollowUpQueue {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  const now = options.now ?? (() => performance.now());
  const waiting: Array<{ resume: () => void; since: number }> = [];
  let releasing = false;
  let ackedThisTurn = false;

  // Runs in the check phase, right after the poll phase has served the I/O that was ready: the requests
  // that arrived were read, verified and acked there. The setImmediate queued here runs on the next
  // turn, after the next poll phase, so at most one follow-up goes on per turn.
  const release = () => {
    const oldest = waiting[0];
    if (oldest !== undefined && (!ackedThisTurn || now() - oldest.since >= maxWaitMs)) {
      waiting.shift();
      oldest.resume();
    }
    ackedThisTurn = false;
    if (waiting.length > 0) setImmediate(release);
    else releasing = false;
  };

  return {
    turn() {
      return new Promise<void>((resume) => {
        waiting.push({ resume, since: now() });
        if (!releasing) {
          releasing = true;
          setImmediate(release);
        }
      });
    },
    acked() {
      ackedThisTurn = true;
    },
    waiting: () => waiting.length,
  };
}

/** Wraps `app.processEvent` so that the ack every listener awaits returns on the follow-up's turn. */
export function ackFirst(app: App, queue: FollowUpQueue = createFollowUpQueue()): void {
  const processEvent = app.processEvent.bind(app);
  app.processEvent = (event: ReceiverEvent) =>
    processEvent({
      ...event,
      ack: async (response) => {
        await event.ack(response);
        queue.acked();
        await queue.turn();
      },
    });
}
