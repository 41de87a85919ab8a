import { afterEach, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/paperspace/errors.js';
import { type FakePaperspace, startFakePaperspace, testClient } from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const network = {
  id: 'nabc',
  name: 'team-net',
  region: 'East Coast (NY2)',
  dtCreated: '2020-01-01T00:00:00.000Z',
  network: '10.64.0.0',
  netmask: '255.255.240.0',
  teamId: 'tabc',
};

describe('networks', () => {
  it('lists networks with every filter of the contract in the query string', async () => {
    server = await startFakePaperspace(() => ({ json: [network] }));
    const { client } = testClient(server);
    const filters = {
      id: 'nabc',
      name: 'team-net',
      region: 'East Coast (NY2)',
      dtCreated: '2020-01-01',
      network: '10.64.0.0',
      netmask: '255.255.240.0',
      teamId: 'tabc',
    } as const;
    await expect(client.networks.list(filters)).resolves.toEqual([network]);
    expect(server.requests).toMatchObject([{ method: 'GET', path: '/networks/getNetworks', query: filters }]);
  });

  it('refuses a region the contract does not name without sending anything', async () => {
    server = await startFakePaperspace(() => ({ json: [] }));
    const { client } = testClient(server);
    const error = await client.networks.list({ region: 'NY2' as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]?.field).toBe('region');
    expect(server.requests).toHaveLength(0);
  });
});
