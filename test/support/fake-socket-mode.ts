// The Socket Mode side of the fake Slack: apps.connections.open hands out a WebSocket URL on the fake's
// own server, and this answers it as Slack does. A connection is greeted with `hello`; the test then
// delivers envelopes (slash commands, interactions, events) and reads back the app's acks, which
// carry the envelope_id and whatever payload the listener acked with.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';

type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface FakeSocketMode {
  /** Connections the app holds open now. */
  connections(): number;
  /** Resolves once an app is connected and greeted. */
  waitForConnection(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Sends one envelope to the connected app, as Slack does, and resolves with the payload of the app's
   * ack (`{}` for a bare ack); rejects when nothing acks it within the timeout (Slack's is 3 s).
   */
  deliver(
    type: EnvelopeType,
    payload: Record<string, unknown>,
    options?: { timeoutMs?: number },
  ): Promise<Record<string, unknown>>;
}

export interface FakeSocketModeServer extends FakeSocketMode {
  /** The path apps.connections.open points at. */
  readonly path: string;
  /** Takes over an HTTP upgrade request for `path`. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

const SLACK_ACK_TIMEOUT_MS = 3000;
const POLL_MS = 10;

export function createFakeSocketMode(appId: string): FakeSocketModeServer {
  const server = new WebSocketServer({ noServer: true });
  const open = new Set<WebSocket>();
  const waitingAcks = new Map<string, (payload: Record<string, unknown>) => void>();
  let envelopes = 0;

  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { envelope_id?: unknown; payload?: unknown };
      if (typeof message.envelope_id !== 'string') return;
      const payload =
        typeof message.payload === 'object' && message.payload !== null
          ? (message.payload as Record<string, unknown>)
          : {};
      waitingAcks.get(message.envelope_id)?.(payload);
      waitingAcks.delete(message.envelope_id);
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: open.size,
        connection_info: { app_id: appId },
        debug_info: { host: 'fake-slack', approximate_connection_time: 3600 },
      }),
    );
  });

  return {
    path: '/socket-mode',
    connections: () => open.size,
    async waitForConnection({ timeoutMs = 2000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      while (open.size === 0) {
        if (Date.now() >= deadline)
          throw new Error(`fake Slack: no Socket Mode connection within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
    deliver(type, payload, { timeoutMs = SLACK_ACK_TIMEOUT_MS } = {}) {
      const [socket] = open;
      if (socket === undefined)
        return Promise.reject(new Error('fake Slack: no app is connected over Socket Mode'));
      envelopes += 1;
      const envelopeId = `envelope-${envelopes}`;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waitingAcks.delete(envelopeId);
          reject(
            new Error(`fake Slack: envelope ${envelopeId} (${type}) was not acked within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waitingAcks.set(envelopeId, (ackPayload) => {
          clearTimeout(timer);
          resolve(ackPayload);
        });
        socket.send(
          JSON.stringify({
            envelope_id: envelopeId,
            type,
            payload,
            accepts_response_payload: type !== 'events_api',
            ...(type === 'events_api' ? { retry_attempt: 0, retry_reason: '' } : {}),
          }),
        );
      });
    },
    upgrade(request, socket, head) {
      server.handleUpgrade(request, socket, head, (client) => server.emit('connection', client, request));
    },
    close() {
      for (const socket of open) socket.terminate();
      server.close();
    },
  };
}
