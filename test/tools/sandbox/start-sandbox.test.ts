// `npm start` without Slack credentials: the real bot, the emulator and the Slack stand-in in one
// process, with the vault key kept under the data directory.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/store.js';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';

let dataDir: string;
let logs: LogCapture;
let running: RunningSandbox | undefined;

beforeEach(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'sandbox-start-')), 'data');
  logs = captureLogs('info');
});
afterEach(async () => {
  await running?.close();
  running = undefined;
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

async function typeAsAda(text: string): Promise<void> {
  const response = await fetch(`${running?.url}sandbox/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'U0ADA', channel: 'C0GENERAL', text }),
  });
  expect(await response.json()).toEqual({ ok: true });
}

async function pageSnapshot(user: string): Promise<{ ephemerals: { text: string }[] }> {
  const controller = new AbortController();
  const response = await fetch(`${running?.url}sandbox/events?user=${user}`, { signal: controller.signal });
  const reader = response.body?.getReader();
  let text = '';
  while (!text.includes('\n\n')) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    text += new TextDecoder().decode(chunk.value);
  }
  controller.abort();
  const data = /^data: (.+)$/m.exec(text)?.[1] ?? '{}';
  return JSON.parse(data) as { ephemerals: { text: string }[] };
}

/** Every file of the folder with its bytes: what a refused start must leave as it was. */
async function snapshot(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of (await readdir(directory)).sort()) {
    files[name] = (await readFile(join(directory, name))).toString('base64');
  }
  return files;
}

describe('startSandbox', () => {
  it('says plainly that it is the sandbox, with the page’s URL and how each demo user logs in', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const messages = logs.lines().map((line) => line.msg);
    expect(messages).toContain(`SANDBOX MODE — no Slack credentials set; open ${running.url}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /Ada Park \(@ada, individual account, administrator\).*demo-key-ada-individual/,
        ),
        expect.stringMatching(
          /Maya Chen \(@maya, team Orbital Labs, administrator\).*login with demo-key-maya-team-admin(?! and)/,
        ),
        expect.stringMatching(/Sam Rivera \(@sam, team Orbital Labs, member\).*demo-key-sam-team-member/),
      ]),
    );
    expect(logs.text()).not.toContain('xoxb-');
  });

  it('speaks v1 to the emulator when asked, and tells team members to log in with the key alone', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir, dialect: 'v1' });
    const lines = logs.lines();
    expect(lines.find((line) => line.dialect === 'v1')?.paperspaceApiUrl).toBe(`${running.emulatorUrl}/v1`);
    const maya = lines.map((line) => line.msg).find((message) => /Maya Chen/.test(String(message)));
    expect(maya).toMatch(/login with demo-key-maya-team-admin$/);
  });

  it("keeps each dialect's database, so trying v1 loses nothing of the contract's sandbox", async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    await running.close();
    // A reminder of Ada's, as /ps remind leaves it, in the contract's world.
    const store = await openStore({ kind: 'sqlite', path: join(dataDir, 'sandbox.db') });
    await store.reminders.create({
      teamId: 'T0SANDBOX',
      userId: 'U0ADA',
      cron: '0 19 * * 1-5',
      timezone: 'UTC',
      channel: 'U0ADA',
      createdAt: Date.now(),
    });
    await store.close();

    running = await startSandbox({ logger: logs.logger, port: 0, dataDir, dialect: 'v1' });
    await running.close();
    const v1 = await openStore({ kind: 'sqlite', path: join(dataDir, 'sandbox-v1.db') });
    expect(await v1.reminders.listAll()).toEqual([]);
    await v1.close();

    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    await running.close();
    running = undefined;
    const back = await openStore({ kind: 'sqlite', path: join(dataDir, 'sandbox.db') });
    expect(await back.reminders.listAll()).toHaveLength(1);
    await back.close();
  });

  it('moves a v1 database of a folder from before under v1’s own name', async () => {
    await mkdir(dataDir, { recursive: true });
    const old = await openStore({ kind: 'sqlite', path: join(dataDir, 'sandbox.db') });
    await old.reminders.create({
      teamId: 'T0SANDBOX',
      userId: 'U0SAM',
      cron: '0 19 * * 1-5',
      timezone: 'UTC',
      channel: 'U0SAM',
      createdAt: Date.now(),
    });
    await old.close();
    await writeFile(join(dataDir, 'sandbox-dialect'), 'v1\n');
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir, dialect: 'v1' });
    await running.close();
    running = undefined;
    const moved = await openStore({ kind: 'sqlite', path: join(dataDir, 'sandbox-v1.db') });
    expect(await moved.reminders.listAll()).toHaveLength(1);
    await moved.close();
    expect(await readdir(dataDir)).not.toContain('sandbox-dialect');
  });

  it('refuses a second start on the same folder, saying where the first runs, and changes no file', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    const before = await snapshot(dataDir);
    await expect(startSandbox({ logger: logs.logger, port: 0, dataDir, dialect: 'v1' })).rejects.toThrow(
      `A sandbox is already running from this folder at ${running.url}`,
    );
    expect(await snapshot(dataDir)).toEqual(before);
  });

  it('takes over the lock of a sandbox that died without closing', async () => {
    await mkdir(dataDir, { recursive: true });
    // A process id no live process has: the lock a kill -9 leaves behind.
    await writeFile(join(dataDir, 'sandbox.lock'), JSON.stringify({ pid: 2 ** 22 + 17, url: 'http://x/' }));
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('names the port and PORT when another program holds the port', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(startSandbox({ logger: logs.logger, port, dataDir })).rejects.toThrow(
        `Port ${port} is already in use by another program: choose a free one with PORT`,
      );
      // Nothing is left locked: the next start on a free port works.
      running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    } finally {
      holder.close();
    }
  });

  it('keeps a generated vault key under the data directory, readable by its owner only', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    expect(((await stat(join(dataDir, 'sandbox-vault.key'))).mode & 0o777).toString(8)).toBe('600');
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['sandbox-vault.key', 'sandbox.db']));
  });

  it('uses VAULT_KEY instead when it is set, and writes no key file', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir, vaultKeys: [randomBytes(32)] });
    expect(await readdir(dataDir)).not.toContain('sandbox-vault.key');
  });

  it('runs the real bot behind the page: a typed command comes back from the bot’s parser', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    // A usage error comes back in the bot's acknowledgement, so it is there when the command returns.
    await typeAsAda('/ps strat gpu-1');
    const { ephemerals } = await pageSnapshot('U0ADA');
    expect(ephemerals.at(-1)?.text).toMatch(/Did you mean "start"\?/);
    expect((await pageSnapshot('U0MAYA')).ephemerals).toEqual([]);
  });

  it('stops everything it started on close', async () => {
    running = await startSandbox({ logger: logs.logger, port: 0, dataDir });
    const { url, botUrl, emulatorUrl } = running;
    await running.close();
    running = undefined;
    for (const address of [url, botUrl, emulatorUrl]) {
      await expect(fetch(address)).rejects.toThrow();
    }
  });
});
