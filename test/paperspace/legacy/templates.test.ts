import { afterEach, describe, expect, it } from 'vitest';
import { RequestValidationError } from '../../../src/paperspace/errors.js';
import { type FakePaperspace, startFakePaperspace, testClient } from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const template = {
  id: 'tkni3aa4',
  name: 'paperspace/tkni3aa4',
  label: 'Ubuntu 20.04 Server',
  os: 'Ubuntu 20.04.1 LTS; uname: 5.4.0-66-generic',
  dtCreated: '2021-03-01T00:00:00.000Z',
  teamId: 'public',
};

describe('templates', () => {
  it('lists templates with every filter of the contract in the query string', async () => {
    server = await startFakePaperspace(() => ({ json: [template, { ...template, id: 't2', label: null }] }));
    const { client } = testClient(server);
    const filters = {
      id: 'tkni3aa4',
      name: 'paperspace/tkni3aa4',
      label: 'Ubuntu 20.04 Server',
      os: 'Ubuntu',
      dtCreated: '2021-03-01',
      teamId: 'public',
      userId: 'uabc',
      region: 'Europe (AMS1)',
    } as const;
    const templates = await client.templates.list(filters);
    expect(templates.map((t) => t.label)).toEqual(['Ubuntu 20.04 Server', null]);
    expect(templates[0]?.teamId).toBe('public');
    expect(server.requests).toMatchObject([
      { method: 'GET', path: '/templates/getTemplates', query: filters },
    ]);
  });

  it('refuses an unknown filter without sending anything', async () => {
    server = await startFakePaperspace(() => ({ json: [] }));
    const { client } = testClient(server);
    const error = await client.templates.list({ machineType: 'P4000' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { field: 'machineType', message: 'is not a parameter of this request' },
    ]);
    expect(server.requests).toHaveLength(0);
  });
});
