// The HTTP server of Socket Mode: no Slack endpoint to serve, but health checks and metrics still need
// a port. Bolt's own route table answers, as the HTTP receiver's would.
import { createServer, type Server } from 'node:http';
import { buildReceiverRoutes, type CustomRoute } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';

/** Serves `customRoutes` (health, metrics) on a plain HTTP server, 404 for anything else. */
export function createRoutesServer(customRoutes: CustomRoute[], logger: Logger): Server {
  const routes = buildReceiverRoutes(customRoutes);
  return createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const handler = routes[path]?.[(request.method ?? 'GET').toUpperCase()];
    if (handler === undefined) {
      response.writeHead(404).end();
      return;
    }
    try {
      handler(Object.assign(request, { params: {} }), response);
    } catch (error) {
      logger.error({ error: describeError(error), path }, 'custom route failed');
      if (!response.headersSent) response.writeHead(500);
      response.end();
    }
  });
}

export function listen(server: Server, port: number, host: string | undefined): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, ...(host === undefined ? {} : { host }) }, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

export function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
