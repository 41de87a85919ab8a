// The request guard's payload checks for Socket Mode, where there is no HTTP request to guard: a body
// that is not an object, or a response_url outside Slack, goes no further than over HTTP
// (request-guard.ts holds the checks; both transports use the same ones). Replays need no check here:
// envelopes arrive over a WebSocket the bot opened with its app token, so nobody else can send one,
// and Slack redelivers an envelope only when it was not acked.
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Logger } from 'pino';
import { responseUrlsAllowed } from './request-guard.js';

export function guardSocketModePayloads(
  responseUrlHosts: readonly string[],
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const body: unknown = args.body;
    const reason =
      typeof body !== 'object' || body === null || Array.isArray(body)
        ? 'the payload is not a JSON object'
        : responseUrlsAllowed(body as Record<string, unknown>, responseUrlHosts)
          ? undefined
          : 'a response_url points outside Slack';
    if (reason === undefined) {
      await args.next();
      return;
    }
    logger.warn({ reason }, 'refused a Socket Mode envelope');
    // Acked with nothing, so Slack does not deliver it again; nothing listens to it.
    if ('ack' in args && typeof args.ack === 'function') await args.ack();
  };
}
