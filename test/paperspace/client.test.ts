import { afterEach, describe, expect, it } from 'vitest';
import { createPaperspaceClient } from '../../src/paperspace/client.js';
import {
  API_KEY,
  type FakePaperspace,
  machineFixture,
  startFakePaperspace,
  testClient,
} from './fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const urls = { baseUrl: 'https://api.paperspace.io', graphqlUrl: 'https://api.paperspace.com/graphql' };

describe('createPaperspaceClient', () => {
  it.each([
    ['https://api.paperspace.io', 'contract'],
    ['https://api.paperspace.com/v1', 'v1'],
    ['https://api.paperspace.com/v1/', 'v1'],
    ['https://api.paperspace.com/v10', 'contract'],
  ])('offers every resource in both dialects: %s speaks %s', (baseUrl, dialect) => {
    const client = createPaperspaceClient({ apiKey: API_KEY, ...urls, baseUrl });
    expect(client.dialect).toBe(dialect);
    const resources = [
      'account',
      'delegations',
      'machines',
      'networks',
      'scripts',
      'sharedDrives',
      'templates',
      'users',
    ] as const;
    for (const resource of resources) {
      expect(client[resource], resource).toBeTypeOf('object');
      // Built once, on first use, and the same object from then on.
      expect(client[resource], resource).toBe(client[resource]);
    }
    expect(client.capabilities).toBeTypeOf('object');
  });

  it.each([
    ['an empty API key', { apiKey: ' ', ...urls }, /needs the user's apiKey/],
    [
      'a relative base URL',
      { apiKey: API_KEY, ...urls, baseUrl: '/api' },
      /baseUrl must be an absolute http\(s\) URL/,
    ],
    [
      'a non-HTTP GraphQL URL',
      { apiKey: API_KEY, ...urls, graphqlUrl: 'ftp://x/graphql' },
      /graphqlUrl must be/,
    ],
    ['a zero timeout', { apiKey: API_KEY, ...urls, timeoutMs: 0 }, /timeoutMs must be a positive number/],
    [
      'a fractional retry count',
      { apiKey: API_KEY, ...urls, maxRetries: 1.5 },
      /maxRetries must be a whole number/,
    ],
  ])('refuses %s with a message that shows no key', (_case, options, message) => {
    expect(() => createPaperspaceClient(options)).toThrow(message);
    try {
      createPaperspaceClient(options);
    } catch (error) {
      expect(String(error)).not.toContain(API_KEY);
    }
  });

  it('keeps a path prefix of the base URL, with or without a trailing slash', async () => {
    server = await startFakePaperspace(() => ({ json: [machineFixture()] }));
    await testClient(server, { baseUrl: `${server.url}/legacy/` }).client.machines.list();
    await testClient(server, { baseUrl: `${server.url}/legacy` }).client.machines.list();
    expect(server.requests.map((request) => request.path)).toEqual([
      '/legacy/machines/getMachines',
      '/legacy/machines/getMachines',
    ]);
  });

  it('keeps users apart: each client sends only its own key', async () => {
    server = await startFakePaperspace(() => ({ json: [] }));
    const alice = testClient(server, { apiKey: 'key-alice' }).client;
    const bob = testClient(server, { apiKey: 'key-bob' }).client;
    await Promise.all([alice.machines.list(), bob.machines.list(), alice.scripts.list()]);
    expect(server.requests.map((request) => request.headers['x-api-key']).sort()).toEqual([
      'key-alice',
      'key-alice',
      'key-bob',
    ]);
  });
});
