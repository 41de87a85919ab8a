import { afterEach, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/paperspace/errors.js';
import { type FakePaperspace, startFakePaperspace, testClient } from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const delegation = {
  id: 4711,
  delegation: { machine: { ids: ['ps1', 'ps2'] } },
  isEnabled: true,
  accessTokenId: 'atk_123',
  dtCreated: '2024-05-01T12:00:00.000Z',
};

describe('delegations', () => {
  it('creates a delegation for machines with the contract body { machine: { ids } }', async () => {
    server = await startFakePaperspace(() => ({ json: delegation }));
    const { client } = testClient(server);
    await expect(client.delegations.create({ machineIds: ['ps1', 'ps2'] })).resolves.toEqual(delegation);
    expect(server.requests).toMatchObject([
      { method: 'POST', path: '/resourceDelegations/create', body: { machine: { ids: ['ps1', 'ps2'] } } },
    ]);
  });

  it.each([
    ['no machine', { machineIds: [] }, 'machineIds'],
    ['an empty machine id', { machineIds: ['ps1', ''] }, 'machineIds[1]'],
  ])('refuses %s without sending anything', async (_case, params, field) => {
    server = await startFakePaperspace(() => ({ json: delegation }));
    const { client } = testClient(server);
    const error = await client.delegations.create(params).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.field)).toEqual([field]);
    expect(server.requests).toHaveLength(0);
  });
});
