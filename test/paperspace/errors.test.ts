import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createApiError,
  formatDuration,
  MissingAccessTokenError,
  PaperspaceApiError,
  PaperspaceAuthenticationError,
  PaperspaceBadRequestError,
  PaperspaceConflictError,
  PaperspaceConnectionError,
  PaperspaceError,
  PaperspaceNotFoundError,
  PaperspacePermissionError,
  PaperspaceRateLimitError,
  PaperspaceServerError,
  PaperspaceTimeoutError,
  RequestValidationError,
} from '../../src/paperspace/errors.js';
import {
  ACCESS_TOKEN,
  API_KEY,
  type FakePaperspace,
  startFakePaperspace,
  testClient,
} from './fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const details = { operation: 'machines.start', action: 'start this machine', body: undefined };

describe('createApiError', () => {
  it.each([
    [400, PaperspaceBadRequestError],
    [422, PaperspaceBadRequestError],
    [401, PaperspaceAuthenticationError],
    [403, PaperspacePermissionError],
    [404, PaperspaceNotFoundError],
    [409, PaperspaceConflictError],
    [429, PaperspaceRateLimitError],
    [500, PaperspaceServerError],
    [502, PaperspaceServerError],
    [503, PaperspaceServerError],
  ])('maps HTTP %i to %o', (status, errorClass) => {
    const error = createApiError({ ...details, status });
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toBeInstanceOf(PaperspaceApiError);
    expect(error.status).toBe(status);
  });

  it('keeps an unlisted status as a plain PaperspaceApiError that still says what failed', () => {
    const error = createApiError({ ...details, status: 418, serverMessage: 'short and stout' });
    expect(error.constructor).toBe(PaperspaceApiError);
    expect(error.message).toBe('Paperspace refused to start this machine: short and stout.');
  });

  it('adds who may do it to a 403, unless the server already said exactly that', () => {
    const permission = { ...details, status: 403, permissionHint: 'Only the owner can start it.' };
    expect(createApiError({ ...permission, serverMessage: 'Forbidden' }).message).toBe(
      'Paperspace does not allow your account to start this machine: Forbidden. Only the owner can start it.',
    );
    expect(createApiError({ ...permission, serverMessage: 'Only the owner can start it' }).message).toBe(
      'Paperspace does not allow your account to start this machine: Only the owner can start it.',
    );
  });

  it('does not say a 403 rule twice when the server said it in other words', () => {
    const hint = "Only the machine's owner can start, stop or restart it.";
    const permission = { ...details, status: 403, permissionHint: hint };
    expect(
      createApiError({ ...permission, serverMessage: "Only the machine's owner can start it" }).message,
    ).toBe(
      "Paperspace does not allow your account to start this machine: Only the machine's owner can start it.",
    );
    expect(createApiError({ ...permission, serverMessage: 'Access denied' }).message).toContain(hint);
  });

  it('keeps timeouts a kind of connection failure, and every failure a PaperspaceError', () => {
    const timeout = new PaperspaceTimeoutError('machines.list', 'list machines', 30_000);
    expect(timeout).toBeInstanceOf(PaperspaceConnectionError);
    expect(timeout).toBeInstanceOf(PaperspaceError);
    expect(timeout.message).toBe(
      'Paperspace did not answer within 30 s while trying to list machines. It may be slow right now; try again shortly.',
    );
  });
});

describe('formatDuration', () => {
  it.each([
    [250, '250 ms'],
    [7000, '7 s'],
    [120_000, '2 min'],
    [3_600_000, '1 h'],
    [5_400_000, '1 h 30 min'],
  ])('writes %i ms as "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('errors parsed from Paperspace answers', () => {
  async function failureFor(
    reply: Parameters<typeof startFakePaperspace>[0],
    call = 'start',
  ): Promise<unknown> {
    server = await startFakePaperspace(reply);
    const { client } = testClient(server, { maxRetries: 0 });
    if (call === 'start') return client.machines.start('psabc123').catch((e: unknown) => e);
    return client.machines.list().catch((e: unknown) => e);
  }

  it('reads the nested shape {"error":{...}} and names the machine that was not found', async () => {
    const error = await failureFor(() => ({
      status: 404,
      json: {
        error: { name: 'Error', status: 404, message: 'Not found. Please contact support@paperspace.com' },
      },
    }));
    expect(error).toBeInstanceOf(PaperspaceNotFoundError);
    const notFound = error as PaperspaceNotFoundError;
    expect(notFound.status).toBe(404);
    expect(notFound.bodyStatus).toBe(404);
    expect(notFound.serverMessage).toBe('Not found. Please contact support@paperspace.com');
    expect(notFound.subject).toEqual({ kind: 'machine', id: 'psabc123' });
    expect(notFound.operation).toBe('machines.start');
    expect(notFound.message).toBe(
      'Paperspace has no machine with id "psabc123" that your account can see. Check the id and try again.',
    );
  });

  it('reads the flat shape {"status","message"} and trusts the HTTP status for the class', async () => {
    const error = await failureFor(() => ({
      status: 401,
      json: { status: 400, message: 'Invalid API token' },
    }));
    expect(error).toBeInstanceOf(PaperspaceAuthenticationError);
    const authError = error as PaperspaceAuthenticationError;
    expect(authError.status).toBe(401);
    expect(authError.bodyStatus).toBe(400);
    expect(authError.serverMessage).toBe('Invalid API token');
    expect(authError.body).toEqual({ status: 400, message: 'Invalid API token' });
    expect(authError.message).toBe(
      'Paperspace rejected the API key while trying to start this machine. Link a new API key with /ps login.',
    );
  });

  it('reduces an HTML error page to its title', async () => {
    const html =
      '<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center>' +
      '<hr><center>nginx</center></body></html>\n';
    const error = await failureFor(
      () => ({ status: 502, text: html, headers: { 'content-type': 'text/html' } }),
      'list',
    );
    expect(error).toBeInstanceOf(PaperspaceServerError);
    expect((error as PaperspaceServerError).serverMessage).toBe('502 Bad Gateway');
    expect((error as PaperspaceServerError).body).toBe(html.trim());
    expect((error as Error).message).toBe(
      'Paperspace had an internal problem while trying to list machines: 502 Bad Gateway. Try again in a minute.',
    );
  });

  it('keeps a plain-text body, trimmed, as the server message', async () => {
    const error = await failureFor(() => ({ status: 403, text: '  Forbidden\n' }));
    expect(error).toBeInstanceOf(PaperspacePermissionError);
    expect((error as PaperspacePermissionError).body).toBe('Forbidden');
    expect((error as Error).message).toBe(
      "Paperspace does not allow your account to start this machine: Forbidden. Only the machine's owner can start, stop or restart it.",
    );
  });

  it('copes with an empty error body', async () => {
    const error = await failureFor(() => ({ status: 409 }));
    expect(error).toBeInstanceOf(PaperspaceConflictError);
    expect((error as PaperspaceConflictError).body).toBeUndefined();
    expect((error as PaperspaceConflictError).serverMessage).toBeUndefined();
    expect((error as Error).message).toBe(
      'Paperspace could not start this machine because of a conflict. Check its current state and try again.',
    );
  });

  it('treats 422 as a rejected request and quotes the reason', async () => {
    const error = await failureFor(() => ({
      status: 422,
      json: { error: { message: 'size is too small' } },
    }));
    expect(error).toBeInstanceOf(PaperspaceBadRequestError);
    expect((error as Error).message).toBe(
      'Paperspace rejected the request to start this machine: size is too small. Check the values and try again.',
    );
  });

  it("carries Paperspace's request id when it sends one, the client's own otherwise", async () => {
    server = await startFakePaperspace(() => ({ status: 500, headers: { 'x-request-id': 'srv-9' } }));
    const fromServer = await testClient(server, { maxRetries: 0, requestId: 'mine' })
      .client.machines.list()
      .catch((e: unknown) => e);
    expect((fromServer as PaperspaceApiError).requestId).toBe('srv-9');
    await server.close();
    server = await startFakePaperspace(() => ({ status: 500 }));
    const fromClient = await testClient(server, { maxRetries: 0, requestId: 'mine' })
      .client.machines.list()
      .catch((e: unknown) => e);
    expect((fromClient as PaperspaceApiError).requestId).toBe('mine');
  });
});

describe('secrets in errors', () => {
  const echoes = `Invalid API token ${API_KEY} / bearer ${ACCESS_TOKEN}`;

  function expectNoSecret(error: unknown) {
    expect(error).toBeInstanceOf(PaperspaceError);
    for (const rendering of [
      String(error),
      (error as Error).message,
      inspect(error, { depth: 10 }),
      JSON.stringify(error),
    ]) {
      expect(rendering).not.toContain(API_KEY);
      expect(rendering).not.toContain(ACCESS_TOKEN);
    }
  }

  it.each([
    ['a JSON body', { status: 401, json: { status: 401, message: echoes } }],
    ['a nested JSON body', { status: 400, json: { error: { name: 'Error', status: 400, message: echoes } } }],
    ['a text body', { status: 403, text: echoes }],
    ['an HTML body', { status: 500, text: `<html><title>${echoes}</title></html>` }],
    ['a GraphQL errors body', { status: 400, json: { errors: [{ message: echoes }] } }],
  ])('never repeats the API key or access token that %s echoes', async (_kind, reply) => {
    server = await startFakePaperspace(() => reply);
    const { client } = testClient(server, { maxRetries: 0 });
    expectNoSecret(await client.machines.list().catch((e: unknown) => e));
    expectNoSecret(await client.sharedDrives.list().catch((e: unknown) => e));
  });

  it('never repeats them in GraphQL errors answered with 200', async () => {
    server = await startFakePaperspace(() => ({ json: { data: null, errors: [{ message: echoes }] } }));
    const { client } = testClient(server);
    expectNoSecret(
      await client.sharedDrives
        .create({ name: 'd', sizeGiB: 1, region: 'Europe (AMS1)', networkId: 'n1' })
        .catch((e: unknown) => e),
    );
  });

  it('never shows them in connection, timeout or validation failures', async () => {
    server = await startFakePaperspace(() => ({ hang: true }));
    const { client } = testClient(server, { timeoutMs: 50, maxRetries: 0 });
    const timeout = await client.machines.list().catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(PaperspaceTimeoutError);
    expectNoSecret(timeout);
    const closed = testClient(server, { baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    const refused = await closed.client.machines.list().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PaperspaceConnectionError);
    expectNoSecret(refused);
    const invalid = await client.machines.utilization('ps1', '2024-13').catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(RequestValidationError);
    expectNoSecret(invalid);
  });

  it('asks for an access token before sending any shared-drive request without one', async () => {
    server = await startFakePaperspace(() => ({ json: {} }));
    const { client } = testClient(server, { accessToken: undefined });
    const error = await client.sharedDrives.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingAccessTokenError);
    expect((error as Error).message).toBe(
      'Cannot list shared drives: shared drives need a Paperspace access token and none is linked. Link one with /ps login.',
    );
    expect(server.requests).toHaveLength(0);
  });
});
