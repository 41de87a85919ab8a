import { buildSchema, graphql } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PaperspaceAuthenticationError,
  PaperspaceGraphqlError,
  PaperspacePermissionError,
  PaperspaceServerError,
  PaperspaceUnexpectedResponseError,
  RequestValidationError,
} from '../../../src/paperspace/errors.js';
import {
  ACCESS_TOKEN,
  type FakePaperspace,
  inSequence,
  type RecordedRequest,
  startFakePaperspace,
  testClient,
} from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// The contract's three operations as a real GraphQL schema, so the client's documents and variables
// are checked by graphql-js exactly as a GraphQL server would check them.
const schema = buildSchema(`
  type Region { name: String! }
  type SharedDrive {
    id: String!
    name: String!
    mountPoint: String
    size: Float
    username: String
    password: String
    region: Region
  }
  type SharedDriveConnection { nodes: [SharedDrive!]! }
  input CreateSharedDriveInput { name: String!, size: Float!, regionId: String!, networkId: String! }
  input DeleteSharedDriveInput { id: String! }
  type SharedDrivePayload { sharedDrive: SharedDrive! }
  type Query { sharedDrives(first: Int, name: String, region: String): SharedDriveConnection! }
  type Mutation {
    createSharedDrive(input: CreateSharedDriveInput!): SharedDrivePayload!
    deleteSharedDrive(input: DeleteSharedDriveInput!): SharedDrivePayload!
  }
`);

const drives = [1, 2, 3].map((n) => ({
  id: `sd${n}`,
  name: `drive-${n}`,
  mountPoint: `\\\\10.64.0.${n}\\share`,
  size: 107374182400,
  username: '*****',
  password: '*****',
  region: { name: 'East Coast (NY2)' },
}));

const rootValue = {
  sharedDrives: ({ first }: { first?: number }) => ({ nodes: drives.slice(0, first ?? drives.length) }),
  createSharedDrive: ({ input }: { input: { name: string } }) => ({
    sharedDrive: { id: 'sdnew', name: input.name },
  }),
  deleteSharedDrive: ({ input }: { input: { id: string } }) => ({
    sharedDrive: { id: input.id, name: 'gone' },
  }),
};

async function executeGraphql(request: RecordedRequest) {
  const { query, variables } = request.body as { query: string; variables: Record<string, unknown> };
  return { json: await graphql({ schema, source: query, variableValues: variables, rootValue }) };
}

const validDrive = { name: 'datasets', sizeGiB: 100, region: 'East Coast (NY2)', networkId: 'nabc' } as const;

describe('shared drives over GraphQL', () => {
  it('lists drives with a POST of { query, variables } carrying the Bearer access token only', async () => {
    server = await startFakePaperspace(executeGraphql);
    const { client } = testClient(server);
    await expect(client.sharedDrives.list()).resolves.toEqual(drives);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/graphql');
    expect(request?.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request?.headers['x-api-key']).toBeUndefined();
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toMatchObject({ query: expect.stringContaining('sharedDrives'), variables: {} });
  });

  it('passes `first` as a variable to limit the list', async () => {
    server = await startFakePaperspace(executeGraphql);
    const { client } = testClient(server);
    await expect(client.sharedDrives.list({ first: 2 })).resolves.toHaveLength(2);
    expect(server.requests[0]?.body).toMatchObject({ variables: { first: 2 } });
  });

  it('creates a drive with the contract input: size in GiB and the region name as regionId', async () => {
    server = await startFakePaperspace(executeGraphql);
    const { client } = testClient(server);
    await expect(client.sharedDrives.create(validDrive)).resolves.toEqual({ id: 'sdnew', name: 'datasets' });
    expect(server.requests[0]?.body).toMatchObject({
      query: expect.stringContaining('createSharedDrive(input: $input)'),
      variables: { input: { name: 'datasets', size: 100, regionId: 'East Coast (NY2)', networkId: 'nabc' } },
    });
  });

  it('deletes a drive by id', async () => {
    server = await startFakePaperspace(executeGraphql);
    const { client } = testClient(server);
    await expect(client.sharedDrives.delete('sd2')).resolves.toEqual({ id: 'sd2' });
    expect(server.requests[0]?.body).toMatchObject({ variables: { input: { id: 'sd2' } } });
  });

  it('turns a "not authorized" GraphQL error into a permission error that keeps the message', async () => {
    server = await startFakePaperspace(() => ({
      json: {
        data: null,
        errors: [{ message: 'Not authorized: team admin required', path: ['createSharedDrive'] }],
      },
    }));
    const { client } = testClient(server);
    const error = await client.sharedDrives.create(validDrive).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspacePermissionError);
    expect((error as PaperspacePermissionError).status).toBe(403);
    expect((error as Error).message).toBe(
      'Paperspace does not allow your account to create shared drive datasets: ' +
        'Not authorized: team admin required. Only team administrators can list, create or delete shared drives.',
    );
  });

  it('turns an UNAUTHENTICATED error into an authentication error about the access token', async () => {
    server = await startFakePaperspace(() => ({
      json: { errors: [{ message: 'Token expired', extensions: { code: 'UNAUTHENTICATED' } }] },
    }));
    const { client } = testClient(server);
    const error = await client.sharedDrives.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceAuthenticationError);
    expect((error as Error).message).toContain('Paperspace rejected the access token');
  });

  it('keeps any other GraphQL error, with every entry, as a PaperspaceGraphqlError', async () => {
    server = await startFakePaperspace(() => ({
      json: { errors: [{ message: 'Network has no free IP space' }, { message: 'try another network' }] },
    }));
    const { client } = testClient(server);
    const error = await client.sharedDrives.create(validDrive).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaperspaceGraphqlError);
    expect((error as PaperspaceGraphqlError).errors).toHaveLength(2);
    expect((error as Error).message).toBe(
      'Paperspace could not create shared drive datasets: Network has no free IP space; try another network.',
    );
  });

  it('rejects an answer without the selected data', async () => {
    server = await startFakePaperspace(() => ({ json: { data: { sharedDrives: null } } }));
    const { client } = testClient(server);
    await expect(client.sharedDrives.list()).rejects.toBeInstanceOf(PaperspaceUnexpectedResponseError);
  });

  it('retries the list query after a 503 but never a mutation', async () => {
    server = await startFakePaperspace(
      inSequence(
        { status: 503, headers: { 'retry-after': '2' } },
        { json: { data: { sharedDrives: { nodes: [] } } } },
      ),
    );
    const { client, sleeps } = testClient(server);
    await expect(client.sharedDrives.list()).resolves.toEqual([]);
    expect(sleeps).toEqual([2000]);
    await server.close();

    server = await startFakePaperspace(() => ({ status: 503, headers: { 'retry-after': '2' } }));
    const second = testClient(server);
    await expect(second.client.sharedDrives.delete('sd1')).rejects.toBeInstanceOf(PaperspaceServerError);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    ['a size of 0 GiB', () => ({ ...validDrive, sizeGiB: 0 }), 'sizeGiB'],
    ['an unknown region', () => ({ ...validDrive, region: 'Narnia' as never }), 'region'],
    ['a missing network', () => ({ ...validDrive, networkId: undefined as never }), 'networkId'],
  ])('refuses %s without sending anything', async (_case, params, field) => {
    server = await startFakePaperspace(executeGraphql);
    const { client } = testClient(server);
    const error = await client.sharedDrives.create(params()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.field)).toEqual([field]);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a list of 0 drives or an empty id without sending anything', async () => {
    server = await startFakePaperspace(executeGraphql);
    const { client } = testClient(server);
    await expect(client.sharedDrives.list({ first: 0 })).rejects.toBeInstanceOf(RequestValidationError);
    await expect(client.sharedDrives.delete('')).rejects.toBeInstanceOf(RequestValidationError);
    expect(server.requests).toHaveLength(0);
  });
});
