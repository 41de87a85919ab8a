import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PaperspaceClient } from '../../../src/paperspace/client.js';
import { PaperspaceUnexpectedResponseError, RequestValidationError } from '../../../src/paperspace/errors.js';
import { type FakePaperspace, type Reply, startFakePaperspace, testClient } from '../fake-paperspace.js';

let server: FakePaperspace | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

let directory = '';
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ps-scripts-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function clientAnswering(handler: Parameters<typeof startFakePaperspace>[0]) {
  server = await startFakePaperspace(handler);
  return { server, ...testClient(server) };
}

const script = {
  id: 'scr1',
  ownerType: 'user',
  ownerId: 'uabc',
  name: 'install-cuda',
  description: null,
  dtCreated: '2024-04-01T09:00:00.000Z',
  isEnabled: true,
  runOnce: false,
};

describe('scripts: request shapes', () => {
  it('creates a script from text with a JSON POST', async () => {
    const { server, client } = await clientAnswering(() => ({ json: script }));
    const created = await client.scripts.create({
      scriptName: 'install-cuda',
      scriptText: '#!/bin/bash\napt-get install -y cuda\n',
      scriptDescription: 'CUDA',
      isEnabled: true,
      runOnce: true,
      machineId: 'psabc123',
    });
    expect(created.id).toBe('scr1');
    expect(server.requests).toMatchObject([
      {
        method: 'POST',
        path: '/scripts/createScript',
        body: {
          scriptName: 'install-cuda',
          scriptText: '#!/bin/bash\napt-get install -y cuda\n',
          scriptDescription: 'CUDA',
          isEnabled: true,
          runOnce: true,
          machineId: 'psabc123',
        },
      },
    ]);
  });

  it('reads a local scriptFile and sends its content as scriptText, never the path', async () => {
    const path = join(directory, 'setup.ps1');
    await writeFile(path, 'Write-Host "héllo"\r\n', 'utf8');
    const { server, client } = await clientAnswering(() => ({ json: script }));
    await client.scripts.create({ scriptName: 'win-setup', scriptFile: path });
    expect(server.requests[0]?.body).toEqual({
      scriptName: 'win-setup',
      scriptText: 'Write-Host "héllo"\r\n',
    });
  });

  it('destroys a script with a POST to its path, whatever the success body', async () => {
    const answers: Reply[] = [{ status: 204 }, { status: 200 }, { json: { ok: true } }];
    const { server, client } = await clientAnswering((_request, index) => answers[index] ?? {});
    for (const _answer of answers) await client.scripts.destroy('scr1');
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /scripts/scr1/destroy',
      'POST /scripts/scr1/destroy',
      'POST /scripts/scr1/destroy',
    ]);
  });

  it('lists scripts with its filters in the query string', async () => {
    const { server, client } = await clientAnswering(() => ({ json: [script] }));
    await expect(
      client.scripts.list({ ownerType: 'team', name: 'install-cuda', isEnabled: true, runOnce: false }),
    ).resolves.toHaveLength(1);
    expect(server.requests).toMatchObject([
      {
        method: 'GET',
        path: '/scripts/getScripts',
        query: { ownerType: 'team', name: 'install-cuda', isEnabled: 'true', runOnce: 'false' },
      },
    ]);
  });

  it('shows a script with the machines it runs on', async () => {
    const { server, client } = await clientAnswering(() => ({
      json: { ...script, machines: [{ id: 'ps1', dtLastRun: null }] },
    }));
    const shown = await client.scripts.show('scr1');
    expect(shown.machines).toEqual([{ id: 'ps1', dtLastRun: null }]);
    expect(server.requests).toMatchObject([
      { method: 'GET', path: '/scripts/getScript', query: { scriptId: 'scr1' } },
    ]);
  });

  it('reads the script text, which Paperspace sends as a JSON string', async () => {
    const { server, client } = await clientAnswering(() => ({ json: '#!/bin/bash\necho "hi"\n' }));
    await expect(client.scripts.text('scr1')).resolves.toBe('#!/bin/bash\necho "hi"\n');
    expect(server.requests).toMatchObject([
      { method: 'GET', path: '/scripts/getScriptText', query: { scriptId: 'scr1' } },
    ]);
  });

  it('does not mistake a JSON object for script text', async () => {
    const { client } = await clientAnswering(() => ({ json: { text: 'echo' } }));
    await expect(client.scripts.text('scr1')).rejects.toBeInstanceOf(PaperspaceUnexpectedResponseError);
  });
});

describe('scripts: validation before sending', () => {
  const limit = 16 * 1024;

  it('accepts text of exactly 16 KB of UTF-8', async () => {
    const { server, client } = await clientAnswering(() => ({ json: script }));
    await client.scripts.create({ scriptName: 's', scriptText: 'a'.repeat(limit) });
    expect(server.requests).toHaveLength(1);
  });

  const cases: [string, (client: PaperspaceClient) => Promise<unknown>, string][] = [
    ['neither scriptText nor scriptFile', (c) => c.scripts.create({ scriptName: 's' }), 'scriptText'],
    [
      'both scriptText and scriptFile',
      (c) => c.scripts.create({ scriptName: 's', scriptText: 'x', scriptFile: '/x' }),
      'scriptFile',
    ],
    ['a missing name', (c) => c.scripts.create({ scriptText: 'echo' } as never), 'scriptName'],
    ['empty text', (c) => c.scripts.create({ scriptName: 's', scriptText: '' }), 'scriptText'],
    // 8193 two-byte characters: under 16 K characters, over 16 KB of UTF-8.
    [
      'text over 16 KB counted in UTF-8 bytes',
      (c) => c.scripts.create({ scriptName: 's', scriptText: 'é'.repeat(8193) }),
      'scriptText',
    ],
    [
      'a file that does not exist',
      (c) => c.scripts.create({ scriptName: 's', scriptFile: join(directory, 'missing.sh') }),
      'scriptFile',
    ],
    [
      'a directory as scriptFile',
      (c) => c.scripts.create({ scriptName: 's', scriptFile: directory }),
      'scriptFile',
    ],
    [
      'an owner type other than user or team',
      (c) => c.scripts.list({ ownerType: 'org' as never }),
      'ownerType',
    ],
    ['an empty script id', (c) => c.scripts.text(''), 'scriptId'],
  ];

  it.each(cases)('refuses %s, naming the field, without sending anything', async (_rule, call, field) => {
    const { server, client } = await clientAnswering(() => ({ json: script }));
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((issue) => issue.field)).toContain(field);
    expect(server.requests).toHaveLength(0);
  });

  it('applies the 16 KB limit to the content of a scriptFile', async () => {
    const small = join(directory, 'small-but-wide.sh');
    const large = join(directory, 'large.sh');
    await writeFile(small, 'é'.repeat(8193), 'utf8');
    await writeFile(large, 'a'.repeat(limit + 1), 'utf8');
    const { server, client } = await clientAnswering(() => ({ json: script }));
    for (const path of [small, large]) {
      const error = await client.scripts
        .create({ scriptName: 's', scriptFile: path })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as Error).message).toMatch(
        /scriptFile is \d+ bytes.*limits a script to 16 KB \(16384 bytes\)/,
      );
    }
    expect(server.requests).toHaveLength(0);
  });
});
