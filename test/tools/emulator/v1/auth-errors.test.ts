import { describe, expect, it } from 'vitest';
import { KEY } from '../test-seed.js';
import { startV1, v1Error } from './v1-harness.js';

describe('v1 authentication', () => {
  it('answers 401 UNAUTHORIZED without a key, and names the Bearer header', async () => {
    const api = await startV1();
    const response = await api.call('GET', '/machines');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(v1Error('UNAUTHORIZED'));
    expect(response.body.message).toContain('Authorization: Bearer');
  });

  it('refuses X-Api-Key on /v1 even with a valid key', async () => {
    const api = await startV1();
    const response = await api.call('GET', '/machines', { apiKeyHeader: KEY.ivy });
    expect(response.status).toBe(401);
    expect(response.body.message).toContain('X-Api-Key is not accepted');
  });

  it('refuses an unknown key and accepts the contract keys as Bearer keys', async () => {
    const api = await startV1();
    expect((await api.call('GET', '/machines', { key: 'nope' })).body).toEqual({
      code: 'UNAUTHORIZED',
      message: 'Invalid API key',
    });
    expect((await api.call('GET', '/machines', { key: KEY.ivy })).status).toBe(200);
  });

  it('answers GET /auth/session with 200 and null for a key nobody is logged in with', async () => {
    const api = await startV1();
    for (const key of ['not-a-real-key-0001', undefined]) {
      const response = await api.call('GET', '/auth/session', key === undefined ? {} : { key });
      expect(response.status).toBe(200);
      expect(response.body).toBeNull();
    }
  });

  it('keeps the contract on its own paths: a Bearer key is no X-Api-Key there', async () => {
    const api = await startV1();
    expect((await api.get('/machines/getMachines', { key: KEY.ivy })).status).toBe(200);
    const response = await api.call('GET', '/../machines/getMachines', { key: KEY.ivy });
    expect(response.status).toBe(401);
  });

  it('says who the caller is and whether they administer the team', async () => {
    const api = await startV1();
    const admin = await api.call('GET', '/auth/session', { key: KEY.alma });
    expect(admin.status).toBe(200);
    expect(admin.body.user).toMatchObject({ id: 'u-alma', email: 'alma@acme.example', firstName: 'Alma' });
    expect(admin.body.user.teamMemberships).toEqual([
      expect.objectContaining({
        isAdmin: true,
        isOwner: false,
        team: expect.objectContaining({ id: 'te-acme' }),
      }),
    ]);
    expect(admin.body.team).toMatchObject({ id: 'te-acme', namespace: 'acme' });
    const member = await api.call('GET', '/auth/session', { key: KEY.milo });
    expect(member.body.user.teamMemberships[0].isAdmin).toBe(false);
    const individual = await api.call('GET', '/auth/session', { key: KEY.ivy });
    expect(individual.body.user.teamMemberships[0]).toMatchObject({ isAdmin: true, isOwner: true });
  });
});

describe('v1 errors', () => {
  it('answers 404 NOT_FOUND for unknown endpoints and for machines of other accounts', async () => {
    const api = await startV1();
    expect((await api.call('GET', '/no-such-thing', { key: KEY.ivy })).body).toEqual(v1Error('NOT_FOUND'));
    const other = await api.call('GET', '/machines/ps-otto-off', { key: KEY.ivy });
    expect(other.status).toBe(404);
    expect(other.body).toEqual(v1Error('NOT_FOUND'));
  });

  it('answers 403 FORBIDDEN when a member creates a machine or starts a teammate’s machine', async () => {
    const api = await startV1();
    const create = await api.call('POST', '/machines', {
      key: KEY.milo,
      body: { name: 'x', machineType: 'C4', templateId: 't-ubuntu', region: 'ny2', diskSize: 50 },
    });
    expect(create.status).toBe(403);
    expect(create.body).toEqual(v1Error('FORBIDDEN'));
    const start = await api.call('PATCH', '/machines/ps-nora-off/start', { key: KEY.milo, body: {} });
    expect(start.status).toBe(403);
  });

  it('answers 400 BAD_REQUEST with every issue of a bad body', async () => {
    const api = await startV1();
    const response = await api.call('POST', '/machines', {
      key: KEY.alma,
      // Any machine type label passes the body's schema (the template decides): an empty one does not.
      body: { name: '', machineType: '', templateId: 't-ubuntu', region: 'ny2' },
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('BAD_REQUEST');
    // The OpenAPI's error body has code, message and an optional details object, nothing else.
    expect(Object.keys(response.body).sort()).toEqual(['code', 'details', 'message']);
    const messages = response.body.details.issues
      .map((issue: { message: string }) => issue.message)
      .join('\n');
    expect(messages).toMatch(/name/);
    expect(messages).toMatch(/machineType/);
    expect(messages).toMatch(/diskSize/);
  });

  it('answers 409 CONFLICT for a second startup script of the same name', async () => {
    const api = await startV1();
    const body = { name: 'setup', script: 'echo hi' };
    expect((await api.call('POST', '/startup-scripts', { key: KEY.alma, body })).status).toBe(200);
    const again = await api.call('POST', '/startup-scripts', { key: KEY.milo, body });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(v1Error('CONFLICT'));
  });

  it('answers 429 TOO_MANY_REQUESTS with Retry-After when the rate limit is hit', async () => {
    const api = await startV1({ rateLimit: 2 });
    const statuses = [];
    let limited: Awaited<ReturnType<typeof api.call>> | undefined;
    for (let n = 0; n < 3; n += 1) {
      const response = await api.call('GET', '/machines', { key: KEY.ivy });
      statuses.push(response.status);
      if (response.status === 429) limited = response;
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(limited?.body).toEqual(v1Error('TOO_MANY_REQUESTS'));
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('answers injected failures in the v1 shape, only on the path asked for', async () => {
    const api = await startV1();
    api.emulator.state.failNextRequests({ count: 1, status: 503, path: '/v1/machines' });
    const failed = await api.call('GET', '/machines', { key: KEY.ivy });
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual(v1Error('INTERNAL_SERVER_ERROR'));
    expect((await api.call('GET', '/machines', { key: KEY.ivy })).status).toBe(200);
  });
});
