import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { SlackUser } from '../../src/store/slack-user.js';
import type { Credentials, KeyVault, LinkedAccount } from '../../src/vault/key-vault.js';
import { createPaperspaceClientFactory } from '../../src/vault/paperspace-clients.js';
import {
  API_KEY,
  type FakePaperspace,
  machineFixture,
  startFakePaperspace,
} from '../paperspace/fake-paperspace.js';

const ADA: SlackUser = { teamId: 'T1', userId: 'U0ADA' };
const ACCOUNT: LinkedAccount = {
  userId: 'uada',
  email: 'ada@example.com',
  teamId: null,
  linkedAt: 0,
  updatedAt: 0,
};

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A vault that answers `current.credentials` for Ada, the same object until the test replaces it. */
function vaultOf(current: { credentials: Credentials }): KeyVault {
  return {
    linked: async (user: SlackUser) =>
      user.userId === ADA.userId ? { credentials: current.credentials, account: ACCOUNT } : undefined,
  } as unknown as KeyVault;
}

describe('the Paperspace client factory', () => {
  it("keeps a person's client while the vault answers the same opened key, and sends each call with its own request's id", async () => {
    server = await startFakePaperspace(() => ({ json: [machineFixture()] }));
    const scope = new AsyncLocalStorage<string>();
    const current = { credentials: { apiKey: API_KEY } };
    const factory = createPaperspaceClientFactory({
      vault: vaultOf(current),
      baseUrl: server.url,
      graphqlUrl: server.graphqlUrl,
      currentRequestId: () => scope.getStore(),
    });

    const serve = (requestId: string) =>
      scope.run(requestId, async () => {
        const linked = await factory.linkedClient(ADA, { requestId });
        await linked?.client.machines.list();
        return linked?.client;
      });
    const [first, second] = await Promise.all([serve('req-1'), serve('req-2')]);
    expect(second).toBe(first);
    expect(server.requests.map((request) => request.headers['x-request-id']).sort()).toEqual([
      'req-1',
      'req-2',
    ]);

    // A new link opens to new credentials: a new client, with the new key.
    current.credentials = { apiKey: 'ps-key-relinked-0000' };
    expect(await serve('req-3')).not.toBe(first);
    expect(server.requests.at(-1)?.headers['x-api-key']).toBe('ps-key-relinked-0000');
  });

  it('builds a client of its own for a caller that names an id other than the request scope’s', async () => {
    server = await startFakePaperspace(() => ({ json: [] }));
    const factory = createPaperspaceClientFactory({
      vault: vaultOf({ credentials: { apiKey: API_KEY } }),
      baseUrl: server.url,
      graphqlUrl: server.graphqlUrl,
    });
    const one = await factory.linkedClient(ADA, { requestId: 'mine-1' });
    const two = await factory.linkedClient(ADA, { requestId: 'mine-2' });
    expect(two?.client).not.toBe(one?.client);
    await two?.client.machines.list();
    expect(server.requests[0]?.headers['x-request-id']).toBe('mine-2');
  });
});
