import { afterEach, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/paperspace/errors.js';
import { type FakePaperspace, startFakePaperspace, testClient } from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = {
  id: 'uabc',
  email: 'ada@example.com',
  firstname: 'Ada',
  lastname: 'Lovelace',
  dtCreated: '2020-01-01T00:00:00.000Z',
  teamId: 'tabc',
};

describe('users', () => {
  it('lists users with every filter of the contract in the query string', async () => {
    server = await startFakePaperspace(() => ({ json: [user] }));
    const { client } = testClient(server);
    const filters = {
      id: 'uabc',
      email: 'ada@example.com',
      firstname: 'Ada',
      lastname: 'Lovelace',
      dtCreated: '2020-01-01',
      teamId: 'tabc',
    };
    await expect(client.users.list(filters)).resolves.toEqual([user]);
    expect(server.requests).toMatchObject([{ method: 'GET', path: '/users/getUsers', query: filters }]);
  });

  it('refuses an empty filter value without sending anything', async () => {
    server = await startFakePaperspace(() => ({ json: [] }));
    const { client } = testClient(server);
    const error = await client.users.list({ email: ' ' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toBe('Cannot list users: email must not be empty.');
    expect(server.requests).toHaveLength(0);
  });
});
