import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from '../src/logger.js';
import { createRequestScope } from '../src/observability/request-scope.js';

const API_KEY = 'c0ffee00c0ffee00c0ffee00c0ffee00';
const ACCESS_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.access.token';
const VAULT_KEY = 'q3JvdGF0aW9uLWtleS1mb3ItdGVzdHMtb25seS0zMmI=';

/** A logger whose lines land in an array, parsed. */
function capturingLogger(
  level: 'info' | 'warn' = 'info',
  requestScope?: ReturnType<typeof createRequestScope>,
) {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level, destination, ...(requestScope ? { requestScope } : {}) });
  const lines = () => raw.join('').trim().split('\n').filter(Boolean);
  return { logger, raw, records: () => lines().map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes JSON lines at or above its level only', () => {
    const { logger, records } = capturingLogger('warn');
    logger.info('not shown');
    logger.warn({ machineId: 'ps123' }, 'machine is slow to start');
    expect(records()).toEqual([
      expect.objectContaining({ msg: 'machine is slow to start', machineId: 'ps123' }),
    ]);
  });

  it('censors secrets at the top level of a logged object', () => {
    const { logger, raw, records } = capturingLogger();
    logger.info({ apiKey: API_KEY, accessToken: ACCESS_TOKEN, vaultKey: VAULT_KEY, user: 'U1' }, 'linked');
    expect(records()[0]).toMatchObject({
      apiKey: REDACTED,
      accessToken: REDACTED,
      vaultKey: REDACTED,
      user: 'U1',
    });
    expect(raw.join('')).not.toContain(API_KEY);
  });

  it('censors secrets nested inside objects someone logged whole', () => {
    const { logger, raw, records } = capturingLogger();
    logger.info(
      {
        request: {
          method: 'GET',
          headers: { 'x-api-key': API_KEY, Authorization: `Bearer ${ACCESS_TOKEN}` },
        },
        credentials: { apiKey: API_KEY, accessToken: ACCESS_TOKEN },
        config: { slack: { botToken: 'xoxb-secret', signingSecret: 'shh' }, VAULT_KEY },
        deep: { a: { b: { c: { password: 'hunter2', token: 'tok' } } } },
        list: [{ apiKey: API_KEY }],
      },
      'request sent',
    );
    const output = raw.join('');
    for (const secret of [API_KEY, ACCESS_TOKEN, VAULT_KEY, 'xoxb-secret', 'shh', 'hunter2', '"tok"']) {
      expect(output).not.toContain(secret);
    }
    expect(records()[0]).toMatchObject({
      request: { method: 'GET', headers: { 'x-api-key': REDACTED, Authorization: REDACTED } },
      credentials: { apiKey: REDACTED, accessToken: REDACTED },
      deep: { a: { b: { c: { password: REDACTED, token: REDACTED } } } },
    });
  });

  it('censors secrets carried on a logged error', () => {
    const { logger, raw, records } = capturingLogger();
    const error = Object.assign(new Error('Paperspace said 401'), { apiKey: API_KEY, status: 401 });
    logger.error({ err: error }, 'call failed');
    expect(raw.join('')).not.toContain(API_KEY);
    expect(records()[0]).toMatchObject({
      err: { message: 'Paperspace said 401', status: 401, apiKey: REDACTED },
    });
  });

  it('censors a PostgreSQL connection string, which carries a password', () => {
    const { logger, raw } = capturingLogger();
    logger.info({ database: { kind: 'postgres', connectionString: 'postgres://bot:pw123@db/bot' } }, 'store');
    expect(raw.join('')).not.toContain('pw123');
  });

  it('leaves the object the caller logged untouched', () => {
    const { logger } = capturingLogger();
    const credentials = { apiKey: API_KEY };
    logger.info({ credentials }, 'checked');
    expect(credentials.apiKey).toBe(API_KEY);
  });

  it("stamps every line logged while serving a request with the request's id, child loggers too", async () => {
    const scope = createRequestScope();
    const { logger, records } = capturingLogger('info', scope);
    const child = logger.child({ component: 'listener' });
    logger.info('before any request');
    await scope.run('req-42', async () => {
      await Promise.resolve();
      child.info('serving');
    });
    expect(records()).toEqual([
      expect.not.objectContaining({ requestId: expect.anything() }),
      expect.objectContaining({ msg: 'serving', component: 'listener', requestId: 'req-42' }),
    ]);
  });

  it('censors OAuth client secrets and refresh tokens', () => {
    const { logger, raw } = capturingLogger();
    logger.info({ oauth: { clientSecret: 'cs-123', refresh_token: 'xoxe-1-abc' } }, 'installed');
    expect(raw.join('')).not.toContain('cs-123');
    expect(raw.join('')).not.toContain('xoxe-1-abc');
  });

  it('censors header names in any case, and secrets deeper than four levels', () => {
    const { logger, raw, records } = capturingLogger();
    logger.info(
      {
        headers: { AUTHORIZATION: `Bearer ${ACCESS_TOKEN}`, 'X-API-KEY': API_KEY },
        a: { b: { c: { d: { e: { f: { apiKey: API_KEY } } } } } },
      },
      'sent',
    );
    expect(raw.join('')).not.toContain(API_KEY);
    expect(raw.join('')).not.toContain(ACCESS_TOKEN);
    expect(records()[0]).toMatchObject({ headers: { AUTHORIZATION: REDACTED, 'X-API-KEY': REDACTED } });
  });

  it("keeps a logged error's type, message and stack, and censors its cause and what it carries", () => {
    class PaperspaceCallError extends Error {}
    const { logger, raw, records } = capturingLogger();
    const cause = Object.assign(new Error('socket closed'), {
      request: { headers: { 'x-api-key': API_KEY } },
    });
    const error = new PaperspaceCallError('listing machines failed', { cause });
    logger.error({ err: error, context: { token: 'xoxb-1' } }, 'call failed');
    expect(raw.join('')).not.toContain(API_KEY);
    expect(raw.join('')).not.toContain('xoxb-1');
    const [record] = records();
    expect(record).toMatchObject({
      err: { type: 'PaperspaceCallError', message: 'listing machines failed: socket closed' },
      context: { token: REDACTED },
    });
    expect(String((record?.err as { stack?: string } | undefined)?.stack)).toContain(
      'caused by: Error: socket closed',
    );
    // The caller's error is left as it was.
    expect(
      (cause as unknown as { request: { headers: Record<string, string> } }).request.headers['x-api-key'],
    ).toBe(API_KEY);
  });

  it("censors a child logger's bindings and what an object's toJSON writes", () => {
    const { logger, raw } = capturingLogger();
    const child = logger.child({ credentials: { apiKey: API_KEY } });
    child.info({ link: { toJSON: () => ({ accessToken: ACCESS_TOKEN }) } }, 'linked');
    expect(raw.join('')).toContain('linked');
    expect(raw.join('')).not.toContain(API_KEY);
    expect(raw.join('')).not.toContain(ACCESS_TOKEN);
  });
});
