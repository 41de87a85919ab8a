import { describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './harness.js';
import { TOKEN } from './test-seed.js';

const LIST = `query Drives($first: Int!) {
  sharedDrives(first: $first) { nodes { id name mountPoint size username password region { name } } }
}`;

const CREATE = `mutation Create($input: CreateSharedDriveInput!) {
  createSharedDrive(input: $input) { sharedDrive { id name size region { name } } }
}`;

const DELETE = `mutation Delete($input: DeleteSharedDriveInput!) {
  deleteSharedDrive(input: $input) { sharedDrive { id } }
}`;

const GIB = 1024 ** 3;

async function createDrive(api: Harness, input: Record<string, unknown>, token: string = TOKEN.alma) {
  return api.graphql(token, CREATE, {
    input: { name: 'scratch', size: 10, regionId: 'Europe (AMS1)', networkId: 'n-acme-tiny', ...input },
  });
}

describe('listing shared drives', () => {
  it('lists the team’s drives for a team administrator, size in bytes, credentials masked', async () => {
    const api = await startHarness();
    const response = await api.graphql(TOKEN.alma, LIST, { first: 10 });
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.sharedDrives.nodes).toEqual([
      {
        id: 'sd-acme',
        name: 'datasets',
        mountPoint: expect.stringMatching(/^\\\\10\.1\.0\.\d+\\sd-acme$/),
        size: 100 * GIB,
        username: expect.stringMatching(/^\*+$/),
        password: expect.stringMatching(/^\*+$/),
        region: { name: 'East Coast (NY2)' },
      },
    ]);
  });

  it('answers only the fields the query selects', async () => {
    const api = await startHarness();
    const response = await api.graphql(TOKEN.alma, '{ sharedDrives(first: 1) { nodes { name } } }');
    expect(response.body).toEqual({ data: { sharedDrives: { nodes: [{ name: 'datasets' }] } } });
  });

  it('refuses a team member in the errors array', async () => {
    const api = await startHarness();
    const response = await api.graphql(TOKEN.milo, LIST, { first: 10 });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ sharedDrives: null });
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: 'Only team administrators can manage shared drives',
        path: ['sharedDrives'],
        extensions: { code: 'FORBIDDEN', status: 403 },
      }),
    ]);
  });

  it('refuses an individual account, which has no team', async () => {
    const api = await startHarness();
    const response = await api.graphql(TOKEN.ivy, LIST, { first: 10 });
    expect(response.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('does not show another team’s drives', async () => {
    const api = await startHarness();
    const response = await api.graphql(TOKEN.otto, LIST, { first: 10 });
    expect(response.body.data.sharedDrives.nodes).toEqual([]);
  });

  it('honours first and the name and region filters', async () => {
    const api = await startHarness();
    await createDrive(api, { name: 'a' });
    await createDrive(api, { name: 'b' });
    const names = async (query: string) =>
      (await api.graphql(TOKEN.alma, query)).body.data.sharedDrives.nodes.map(
        (drive: { name: string }) => drive.name,
      );
    expect(await names('{ sharedDrives(first: 2) { nodes { name } } }')).toEqual(['datasets', 'a']);
    expect(await names('{ sharedDrives(first: 10, name: "b") { nodes { name } } }')).toEqual(['b']);
    expect(await names('{ sharedDrives(first: 10, region: "Europe (AMS1)") { nodes { name } } }')).toEqual([
      'a',
      'b',
    ]);
  });

  it('reports a query the schema does not know as a GraphQL error with status 400', async () => {
    const api = await startHarness();
    const response = await api.graphql(TOKEN.alma, '{ sharedDrives(first: 1) { nodes { colour } } }');
    expect(response.status).toBe(400);
    expect(response.body.errors[0].message).toMatch(/colour/);
  });
});

describe('creating and deleting shared drives', () => {
  it('creates a drive of the given GiB on a network of the region, taking one of its addresses', async () => {
    const api = await startHarness();
    const before = api.emulator.state.freeAddresses('n-acme-tiny');
    const response = await createDrive(api, { name: 'renders', size: 25 });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.createSharedDrive.sharedDrive).toEqual({
      id: expect.any(String),
      name: 'renders',
      size: 25 * GIB,
      region: { name: 'Europe (AMS1)' },
    });
    expect(api.emulator.state.freeAddresses('n-acme-tiny')).toBe(before - 1);
  });

  it('refuses a network without free IP space', async () => {
    const api = await startHarness();
    for (let n = 0; n < 5; n += 1)
      expect((await createDrive(api, { name: `d${n}` })).body.errors).toBeUndefined();
    const full = await createDrive(api, { name: 'one-too-many' });
    expect(full.body.data).toEqual({ createSharedDrive: null });
    expect(full.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/no free IP space/),
      extensions: { code: 'BAD_USER_INPUT', status: 400 },
    });
  });

  it.each([
    [{ regionId: 'East Coast (NY2)' }, /is in Europe \(AMS1\), not East Coast \(NY2\)/],
    [{ regionId: 'Mars' }, /regionId must be one of/],
    [{ networkId: 'n-other-ny', regionId: 'East Coast (NY2)' }, /no network n-other-ny/],
    [{ size: 0 }, /size must be a whole number of GiB/],
  ])('refuses %j', async (input, message) => {
    const api = await startHarness();
    const response = await createDrive(api, input);
    expect(response.body.errors[0].message).toMatch(message);
  });

  it('refuses a team member', async () => {
    const api = await startHarness();
    const response = await createDrive(api, {}, TOKEN.milo);
    expect(response.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(api.emulator.state.drives()).toHaveLength(1);
  });

  it('deletes a drive and gives its address back to the network', async () => {
    const api = await startHarness();
    const created = await createDrive(api, {});
    const id = created.body.data.createSharedDrive.sharedDrive.id;
    const free = api.emulator.state.freeAddresses('n-acme-tiny');
    const deleted = await api.graphql(TOKEN.alma, DELETE, { input: { id } });
    expect(deleted.body).toEqual({ data: { deleteSharedDrive: { sharedDrive: { id } } } });
    expect(api.emulator.state.freeAddresses('n-acme-tiny')).toBe(free + 1);
    const again = await api.graphql(TOKEN.alma, DELETE, { input: { id } });
    expect(again.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('refuses a member deleting (403) and hides the drive from another team (404)', async () => {
    const api = await startHarness();
    const byMember = await api.graphql(TOKEN.milo, DELETE, { input: { id: 'sd-acme' } });
    expect(byMember.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const byOtherTeam = await api.graphql(TOKEN.otto, DELETE, { input: { id: 'sd-acme' } });
    expect(byOtherTeam.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(api.emulator.state.drives().map((drive) => drive.id)).toEqual(['sd-acme']);
  });
});
