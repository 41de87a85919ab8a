import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../tools/emulator/index.js';
import { nestedError, startHarness } from './harness.js';
import { KEY, TOKEN } from './test-seed.js';

describe('rate limit', () => {
  it('answers 429 with Retry-After in seconds after N requests in a second from one key', async () => {
    const api = await startHarness({ rateLimit: 3 });
    for (let n = 0; n < 3; n += 1)
      expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
    api.clock.advance(400);
    const limited = await api.get('/users/getUsers', { key: KEY.ivy });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual(nestedError(429));
  });

  it('counts each key separately', async () => {
    const api = await startHarness({ rateLimit: 1 });
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(429);
    expect((await api.get('/users/getUsers', { key: KEY.milo })).status).toBe(200);
  });

  it('lets the key through again in the next second', async () => {
    const api = await startHarness({ rateLimit: 1 });
    await api.get('/users/getUsers', { key: KEY.ivy });
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(429);
    api.clock.advance(1000);
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
  });

  it('limits GraphQL calls too, answering in the errors array', async () => {
    const api = await startHarness({ rateLimit: 1 });
    const query = '{ sharedDrives(first: 1) { nodes { id } } }';
    expect((await api.graphql(TOKEN.alma, query)).status).toBe(200);
    const limited = await api.graphql(TOKEN.alma, query);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body.errors[0].extensions.code).toBe('RATE_LIMITED');
  });
});

describe('fail rate', () => {
  it('answers 500 to the requests the random source picks', async () => {
    const draws = [0.9, 0.1, 0.6, 0.2];
    const api = await startHarness({ failRate: 0.25, random: () => draws.shift() ?? 1 });
    const statuses: number[] = [];
    for (let n = 0; n < 5; n += 1) statuses.push((await api.get('/users/getUsers', { key: KEY.ivy })).status);
    expect(statuses).toEqual([200, 500, 200, 500, 200]);
  });

  it('fails about the given share of requests with a seeded generator, in the nested shape', async () => {
    const api = await startHarness({ failRate: 0.3, random: seededRandom(7) });
    const responses = [];
    for (let n = 0; n < 200; n += 1) responses.push(await api.get('/users/getUsers', { key: KEY.ivy }));
    const failures = responses.filter((response) => response.status === 500);
    expect(failures.length).toBeGreaterThan(40);
    expect(failures.length).toBeLessThan(80);
    expect(failures[0]?.body).toEqual(nestedError(500));
  });
});

describe('scheduled failures', () => {
  it('fails the next N requests with the chosen status, then serves normally', async () => {
    const api = await startHarness();
    api.emulator.state.failNextRequests({ count: 2, status: 503, message: 'maintenance' });
    const statuses = [];
    for (let n = 0; n < 3; n += 1) statuses.push(await api.get('/users/getUsers', { key: KEY.ivy }));
    expect(statuses.map((response) => response.status)).toEqual([503, 503, 200]);
    expect(statuses[0]?.body).toEqual({ error: { name: 'Error', status: 503, message: 'maintenance' } });
  });

  it('can target one path and answers a 401 in the flat shape', async () => {
    const api = await startHarness();
    api.emulator.state.failNextRequests({ count: 1, status: 401, path: '/machines/getMachines' });
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
    const failed = await api.get('/machines/getMachines', { key: KEY.ivy });
    expect(failed.status).toBe(401);
    expect(failed.body).toEqual({ status: 401, message: expect.any(String) });
    expect((await api.get('/machines/getMachines', { key: KEY.ivy })).status).toBe(200);
  });

  it("can target one person's key, so another person's request in flight cannot take the failure", async () => {
    const api = await startHarness();
    api.emulator.state.failNextRequests({ count: 1, status: 503, apiKey: KEY.alma });
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
    expect((await api.get('/users/getUsers', { key: KEY.alma })).status).toBe(503);
    expect((await api.get('/users/getUsers', { key: KEY.alma })).status).toBe(200);
  });

  it('refuses a status that is not an error', async () => {
    const api = await startHarness();
    expect(() => api.emulator.state.failNextRequests({ count: 1, status: 200 })).toThrow(RangeError);
  });

  it('logs every request with the status it got', async () => {
    const api = await startHarness();
    api.emulator.state.failNextRequests({ count: 1 });
    await api.get('/users/getUsers', { key: KEY.ivy });
    await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy });
    expect(
      api.emulator.state.requests().map(({ method, path, status }) => `${method} ${path} ${status}`),
    ).toEqual(['GET /users/getUsers 500', 'POST /machines/ps-ivy-off/start 200']);
  });
});

describe('latency', () => {
  it('delays every answer by latencyMs', async () => {
    const api = await startHarness({ latencyMs: 120 });
    const started = performance.now();
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });
});

describe('unknown endpoints', () => {
  it('answers 404 in the nested shape', async () => {
    const api = await startHarness();
    const response = await api.get('/machines/teleport', { key: KEY.ivy });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(nestedError(404));
  });
});

describe('a hanging key', () => {
  it('holds every request of that key unanswered until released, while other keys are served', async () => {
    const api = await startHarness();
    api.emulator.state.hangKey(KEY.ivy);
    let answered = false;
    const held = api.get('/users/getUsers', { key: KEY.ivy }).then((response) => {
      answered = true;
      return response;
    });
    await expect.poll(() => api.emulator.state.heldRequests()).toBe(1);
    expect((await api.get('/users/getUsers', { key: KEY.milo })).status).toBe(200);
    expect(answered).toBe(false);

    api.emulator.state.releaseKey(KEY.ivy);
    expect((await held).status).toBe(200);
    expect(api.emulator.state.heldRequests()).toBe(0);
    expect((await api.get('/users/getUsers', { key: KEY.ivy })).status).toBe(200);
  });
});
