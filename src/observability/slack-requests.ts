// Every Slack request passes through App#processEvent, which both receivers (HTTP and Socket Mode) call
// with the request's body and its ack function. Wrapping it is the one seam that sees each request from
// arrival to the end of its listeners, and the ack in between, whatever the transport:
// - it gives the request an id, serves it inside the request scope (log lines and X-Request-Id) and
//   hands the id to listeners as `context.requestId`;
// - it times the ack and counts the request by kind and outcome;
// - it tracks the requests under way, so that shutdown can wait for them.
// A Bolt global middleware cannot do this: the ack it sees is a copy of the one listeners call, and it
// runs after authorization, so it would miss the requests that fail there.
import { randomUUID } from 'node:crypto';
import type { App } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeSlackRequest } from '../errors/describe-error.js';
import { DeadlineExceededError, withinDeadline } from './deadline.js';
import type { BotMetrics, SlackRequestKind, SlackRequestOutcome } from './metrics.js';
import type { RequestScope } from './request-scope.js';

type ReceiverEvent = Parameters<App['processEvent']>[0];

export interface SlackRequestTracker {
  /** Requests whose listeners are still running. */
  inFlight(): number;
  /**
   * Resolves once every request under way (and any that arrives meanwhile) has finished, or when
   * `timeoutMs` have passed; says how many were still running then.
   */
  drain(timeoutMs: number): Promise<{ unfinished: number }>;
}

export interface SlackRequestInstrumentationDeps {
  metrics: Pick<
    BotMetrics,
    'slackRequestStarted' | 'slackRequestAcked' | 'slackRequestFinished' | 'errorOccurred'
  >;
  scope: RequestScope;
  logger: Logger;
  /** Makes request ids; random UUIDs by default. */
  newRequestId?: () => string;
}

/** The kind of a Slack request, read from its body as Slack sends it. */
export function slackRequestKind(body: Record<string, unknown>): SlackRequestKind {
  if (typeof body.command === 'string') return 'command';
  switch (body.type) {
    case 'block_actions':
    case 'interactive_message':
      return 'action';
    case 'view_submission':
    case 'view_closed':
      return 'view';
    case 'event_callback':
      return 'event';
    case 'block_suggestion':
    case 'dialog_suggestion':
      return 'options';
    case 'shortcut':
    case 'message_action':
      return 'shortcut';
    default:
      return 'other';
  }
}

/** Wraps `app.processEvent`; call once, before the app starts. */
export function instrumentSlackRequests(
  app: App,
  deps: SlackRequestInstrumentationDeps,
): SlackRequestTracker {
  const { metrics, scope, logger } = deps;
  const newRequestId = deps.newRequestId ?? randomUUID;
  const processEvent = app.processEvent.bind(app);
  const running = new Set<Promise<void>>();

  const serve = async (event: ReceiverEvent): Promise<void> => {
    const arrived = performance.now();
    const requestId = newRequestId();
    const kind = slackRequestKind(event.body);
    let ackMs: number | undefined;
    const ack: ReceiverEvent['ack'] = (response) => {
      if (ackMs === undefined) {
        ackMs = performance.now() - arrived;
        metrics.slackRequestAcked(kind, ackMs / 1000);
      }
      return event.ack(response);
    };
    let outcome: SlackRequestOutcome = 'unacked';
    metrics.slackRequestStarted();
    try {
      await scope.run(requestId, () =>
        processEvent({ ...event, ack, customProperties: { ...event.customProperties, requestId } }),
      );
      if (ackMs !== undefined) outcome = 'acked';
    } catch (error) {
      // Bolt's error handler (createSlackErrorHandler) has logged it; the receiver answers Slack.
      outcome = 'error';
      metrics.errorOccurred('slack');
      throw error;
    } finally {
      metrics.slackRequestFinished(kind, outcome);
      logger.info(
        {
          requestId,
          request: describeSlackRequest(event.body),
          outcome,
          ...(ackMs === undefined ? {} : { ackMs: Math.round(ackMs) }),
          durationMs: Math.round(performance.now() - arrived),
        },
        'Slack request handled',
      );
    }
  };

  app.processEvent = (event) => {
    const request = serve(event);
    running.add(request);
    const forget = () => {
      running.delete(request);
    };
    request.then(forget, forget);
    return request;
  };

  return {
    inFlight: () => running.size,
    async drain(timeoutMs) {
      const settleAll = async () => {
        // Requests that arrive while draining (a Socket Mode event already on its way) are waited for too.
        while (running.size > 0) await Promise.allSettled([...running]);
      };
      try {
        await withinDeadline('in-flight Slack requests', timeoutMs, settleAll);
      } catch (error) {
        if (!(error instanceof DeadlineExceededError)) throw error;
        logger.warn(
          { timeoutMs, unfinished: running.size },
          'stopped waiting for Slack requests still being handled',
        );
      }
      return { unfinished: running.size };
    },
  };
}
