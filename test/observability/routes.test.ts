import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createBotMetrics } from '../../src/observability/metrics.js';
import { createObservabilityRoutes } from '../../src/observability/routes.js';
import { captureLogs } from '../support/log-capture.js';
import { startTestBot } from '../support/test-bot.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The routes on a plain node:http server on port 0, with a store whose ping the test decides. */
async function serveRoutes(
  ping: () => Promise<void>,
  options: { metricsToken?: string; shuttingDown?: () => boolean } = {},
) {
  const logs = captureLogs();
  const metrics = createBotMetrics({
    countActiveWatches: async () => 0,
    logger: logs.logger,
    processMetrics: false,
  });
  const routes = createObservabilityRoutes({
    store: { ping },
    metrics,
    logger: logs.logger,
    pingTimeoutMs: 50,
    ...options,
  });
  const server = createServer((request, response) => {
    const route = routes.find((candidate) => candidate.path === request.url);
    if (route === undefined) response.writeHead(404).end();
    else route.handler(Object.assign(request, { params: {} }), response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return { status: response.status, text: await response.text(), headers: response.headers };
  };
  return { get, logs };
}

describe('GET /healthz', () => {
  it('answers 503 when the store does not answer in time, without waiting for it', async () => {
    const { get } = await serveRoutes(() => new Promise(() => undefined));
    const started = Date.now();
    const answer = await get('/healthz');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toEqual({
      status: 'unavailable',
      reason: 'the store did not answer within 50 ms',
    });
  });

  it('names the failure by its code and never echoes the error message, which can quote a password', async () => {
    const failure = Object.assign(new Error('connect to postgres://bot:hunter2@db:5432/bot failed'), {
      code: 'ECONNREFUSED',
    });
    const { get, logs } = await serveRoutes(() => Promise.reject(failure));
    const answer = await get('/healthz');
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toEqual({
      status: 'unavailable',
      reason: 'the store cannot be reached (ECONNREFUSED)',
    });
    expect(answer.text).not.toContain('hunter2');
    expect(logs.text()).toContain('health check failed');
  });

  it('logs a failing store once while it stays down, and again when it is back', async () => {
    let healthy = false;
    const { get, logs } = await serveRoutes(async () => {
      if (!healthy) throw new Error('database is locked');
    });
    await get('/healthz');
    await get('/healthz');
    healthy = true;
    expect((await get('/healthz')).status).toBe(200);
    const messages = logs.lines().map((line) => line.msg);
    expect(messages).toEqual(['health check failed', 'health check passes again']);
  });
});

describe('GET /livez and GET /readyz', () => {
  const down = () => Promise.reject(Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' }));

  it('keeps /livez at 200 while the store is down, so a database outage restarts no replica', async () => {
    const { get } = await serveRoutes(down);
    const live = await get('/livez');
    expect(live.status).toBe(200);
    expect(JSON.parse(live.text)).toEqual({ status: 'ok' });
    const ready = await get('/readyz');
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.text)).toEqual({
      status: 'unavailable',
      reason: 'the store cannot be reached (ECONNREFUSED)',
    });
  });

  it('answers /readyz 200 while the store answers, and 503 from the moment shutdown begins', async () => {
    let shuttingDown = false;
    let pings = 0;
    const { get } = await serveRoutes(
      async () => {
        pings += 1;
      },
      { shuttingDown: () => shuttingDown },
    );
    expect((await get('/readyz')).status).toBe(200);
    expect(pings).toBe(1);

    shuttingDown = true;
    const draining = await get('/readyz');
    expect(draining.status).toBe(503);
    expect(JSON.parse(draining.text)).toEqual({ status: 'unavailable', reason: 'shutting down' });
    expect(pings).toBe(1);
    // The process still serves: liveness holds, and /healthz keeps its old meaning (the store only).
    expect((await get('/livez')).status).toBe(200);
    expect((await get('/healthz')).status).toBe(200);
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  const TOKEN = 'a3f1c9d27b6e4f0a8c5d1e2f3a4b5c6d';
  const up = () => Promise.resolve();

  it('answers 401 with a Bearer challenge without the token, or with a wrong one', async () => {
    const { get } = await serveRoutes(up, { metricsToken: TOKEN });
    for (const headers of [
      {} as Record<string, string>,
      { authorization: `Bearer ${TOKEN.slice(0, -1)}` },
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}` },
      { authorization: TOKEN },
    ]) {
      const answer = await get('/metrics', headers);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(answer.text).toBe('');
    }
  });

  it('serves the metrics to a scrape that sends the token, and /healthz to anyone', async () => {
    const { get } = await serveRoutes(up, { metricsToken: TOKEN });
    const metrics = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('# TYPE psbot_slack_requests_total counter');
    expect((await get('/metrics', { authorization: `bearer  ${TOKEN}` })).status).toBe(200);
    expect((await get('/healthz')).status).toBe(200);
  });
});

describe('GET /healthz and GET /metrics on the running bot', () => {
  it('answers ok while the store answers, and 503 once it is closed', async () => {
    const bot = await startTestBot();
    try {
      const healthy = await bot.get('/healthz');
      expect(healthy.status).toBe(200);
      expect(healthy.contentType).toContain('application/json');
      expect(JSON.parse(healthy.text)).toEqual({ status: 'ok' });

      await bot.store.close();
      const unhealthy = await bot.get('/healthz');
      expect(unhealthy.status).toBe(503);
      expect(JSON.parse(unhealthy.text)).toMatchObject({ status: 'unavailable' });
      expect(unhealthy.text).not.toContain(bot.databasePath);

      // /metrics still answers: the store-backed gauge says it does not know (prom-client spells NaN
      // "Nan"; Prometheus reads either).
      const metrics = await bot.get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.text).toMatch(/^psbot_watches_active nan$/im);
    } finally {
      await bot.close();
    }
  });

  it('serves the metrics in the Prometheus text format', async () => {
    const bot = await startTestBot();
    try {
      const metrics = await bot.get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.contentType).toContain('text/plain; version=0.0.4');
      expect(metrics.text).toContain('# TYPE psbot_slack_requests_total counter');
      expect(metrics.text).toContain('# TYPE psbot_slack_ack_duration_seconds histogram');
      expect(metrics.text).toMatch(/^psbot_watches_active 0$/m);
    } finally {
      await bot.close();
    }
  });
});
