// GET /livez, /readyz, /healthz and /metrics, served through the Slack app's customRoutes (on the Slack
// port in HTTP mode, on their own server in Socket Mode). Liveness and readiness are separate questions:
// an orchestrator restarts a process that fails liveness, so /livez asks nothing of the database (an
// outage would otherwise restart every replica at once, helping nobody); a load balancer stops sending
// to a replica that fails readiness, so /readyz fails while the database does not answer and from the
// moment shutdown begins. /healthz is the older single check (the database only), kept for probes that
// already use it. All may be probed every few seconds by anyone who can reach the port, so none says
// anything secret: they name what failed without echoing an error message (a database error can quote
// its connection), and /metrics carries counts only. Counts can still tell an outsider how busy the team
// is, so /metrics can ask for a bearer token (METRICS_TOKEN).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import type { Store } from '../store/store.js';
import { DeadlineExceededError, withinDeadline } from './deadline.js';
import type { BotMetrics } from './metrics.js';

const HEALTH_PATH = '/healthz';
const LIVENESS_PATH = '/livez';
const READINESS_PATH = '/readyz';
const METRICS_PATH = '/metrics';
const DEFAULT_PING_TIMEOUT_MS = 2_000;

export interface ObservabilityRoutesDeps {
  store: Pick<Store, 'ping'>;
  metrics: Pick<BotMetrics, 'exposition' | 'contentType'>;
  logger: Logger;
  /** How long /healthz waits for the store; default 2 s (load balancers probe with short timeouts). */
  pingTimeoutMs?: number;
  /** When set, GET /metrics answers only `Authorization: Bearer <metricsToken>`; 401 otherwise. */
  metricsToken?: string;
  /** True once shutdown has begun: /readyz then answers 503 without asking the store. Default never. */
  shuttingDown?: () => boolean;
}

type HealthReport = { status: 'ok' } | { status: 'unavailable'; reason: string };

/** A code such as ECONNREFUSED, SQLITE_BUSY or 57P01 says what failed and cannot hold a secret. */
const SAFE_CODE = /^[A-Z0-9_]{2,40}$/;

export function createObservabilityRoutes(deps: ObservabilityRoutesDeps): CustomRoute[] {
  const pingTimeoutMs = deps.pingTimeoutMs ?? DEFAULT_PING_TIMEOUT_MS;
  const mayReadMetrics = bearerCheck(deps.metricsToken);
  const logger = deps.logger.child({ component: 'health' });
  // While the store stays down a probe fails every few seconds: the change is logged, not every probe.
  let lastFailure: string | undefined;

  const check = async (): Promise<HealthReport> => {
    try {
      await withinDeadline('the store', pingTimeoutMs, () => deps.store.ping());
    } catch (error) {
      const reason = healthReason(error, pingTimeoutMs);
      if (reason !== lastFailure) {
        logger.warn({ error: describeError(error), reason }, 'health check failed');
        lastFailure = reason;
      }
      return { status: 'unavailable', reason };
    }
    if (lastFailure !== undefined) {
      logger.info('health check passes again');
      lastFailure = undefined;
    }
    return { status: 'ok' };
  };

  const shuttingDown = deps.shuttingDown ?? (() => false);
  const answerWith = (response: ServerResponse, report: HealthReport) =>
    sendJson(response, report.status === 'ok' ? 200 : 503, report);

  return [
    {
      path: LIVENESS_PATH,
      method: 'GET',
      // Answering at all is the proof: the event loop runs and the server accepts connections.
      handler: answering(logger, async (response) => answerWith(response, { status: 'ok' })),
    },
    {
      path: READINESS_PATH,
      method: 'GET',
      handler: answering(logger, async (response) => {
        answerWith(
          response,
          shuttingDown() ? { status: 'unavailable', reason: 'shutting down' } : await check(),
        );
      }),
    },
    {
      path: HEALTH_PATH,
      method: 'GET',
      handler: answering(logger, async (response) => answerWith(response, await check())),
    },
    {
      path: METRICS_PATH,
      method: 'GET',
      handler: answering(logger, async (response, request) => {
        if (!mayReadMetrics(request)) {
          response.writeHead(401, {
            'www-authenticate': 'Bearer realm="metrics"',
            'cache-control': 'no-store',
          });
          response.end();
          return;
        }
        const text = await deps.metrics.exposition();
        response.writeHead(200, { 'content-type': deps.metrics.contentType, 'cache-control': 'no-store' });
        response.end(text);
      }),
    },
  ];
}

function healthReason(error: unknown, pingTimeoutMs: number): string {
  if (error instanceof DeadlineExceededError) return `the store did not answer within ${pingTimeoutMs} ms`;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SAFE_CODE.test(code)
    ? `the store cannot be reached (${code})`
    : 'the store cannot be reached';
}

/**
 * Whether a request carries the bearer token; every request does when there is no token. Both sides are
 * hashed first, so the comparison takes the same time whatever the guess, its length included.
 */
function bearerCheck(token: string | undefined): (request: IncomingMessage) => boolean {
  if (token === undefined) return () => true;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const expected = digest(token);
  return (request) => {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '');
    return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
  };
}

/** Bolt calls route handlers without awaiting them: a failure is answered and logged here. */
function answering(
  logger: Logger,
  serve: (response: ServerResponse, request: IncomingMessage) => Promise<void>,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    serve(response, request).catch((error: unknown) => {
      logger.error({ error: describeError(error), path: request.url }, 'observability route failed');
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(body));
}
