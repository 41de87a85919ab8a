// Sends a request to the app the way Slack does: signed with the signing secret
// (X-Slack-Signature = v0=HMAC-SHA256(secret, `v0:<timestamp>:<body>`)), and given up on when no
// acknowledgement arrives within Slack's 3 seconds.
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';

/** How long Slack waits for an acknowledgement before giving up on the app. */
const ACK_TIMEOUT_MS = 3_000;

/** The app's answer, or Slack's name for not getting one. */
export type Ack = { status: number; body: unknown } | { failure: 'operation_timeout' | 'dispatch_failed' };

export interface SignedSender {
  /** A raw body (slash commands as a form, events as JSON). */
  send(contentType: string, body: string): Promise<Ack>;
  /** An interaction: one form field, `payload`, holding the JSON. */
  sendInteraction(payload: Record<string, unknown>): Promise<Ack>;
}

export interface SignedSenderOptions {
  signingSecret: string;
  /** The app's request URL; read at each send, since the app may start after the sandbox. */
  requestUrl: () => string;
  logger: Logger;
  now: () => number;
  ackTimeoutMs?: number;
}

export function createSignedSender(options: SignedSenderOptions): SignedSender {
  const ackTimeoutMs = options.ackTimeoutMs ?? ACK_TIMEOUT_MS;

  const send = async (contentType: string, body: string): Promise<Ack> => {
    const timestamp = Math.floor(options.now() / 1000);
    try {
      const response = await fetch(options.requestUrl(), {
        method: 'POST',
        headers: {
          'content-type': contentType,
          'x-slack-request-timestamp': String(timestamp),
          'x-slack-signature': slackSignature(options.signingSecret, timestamp, body),
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
        },
        body,
        signal: AbortSignal.timeout(ackTimeoutMs),
      });
      const text = await response.text();
      const isJson = response.headers.get('content-type')?.startsWith('application/json') ?? false;
      return { status: response.status, body: isJson && text !== '' ? JSON.parse(text) : text };
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      options.logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        'the bot did not acknowledge',
      );
      return { failure: timedOut ? 'operation_timeout' : 'dispatch_failed' };
    }
  };

  return {
    send,
    sendInteraction: (payload) =>
      send(
        'application/x-www-form-urlencoded',
        new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      ),
  };
}

/** X-Slack-Signature for a body sent at `timestamp` (seconds), as Slack computes it. */
export function slackSignature(signingSecret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** Why Slack would call the request failed, or undefined when the app acknowledged it. */
export function ackFailure(ack: Ack): string | undefined {
  if ('failure' in ack) return ack.failure;
  return ack.status >= 200 && ack.status < 300 ? undefined : `http_${ack.status}`;
}
