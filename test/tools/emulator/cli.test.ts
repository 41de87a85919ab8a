import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children.splice(0)) {
    // npx starts tsx, which starts node: end the whole process group this test started.
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  }
});

function runCli(args: string[]): ChildProcess {
  const child = spawn('npx', ['tsx', 'tools/emulator/cli.ts', ...args], { detached: true, stdio: 'pipe' });
  children.push(child);
  return child;
}

/** Resolves with the first `count` lines of stdout. */
function firstLines(child: ChildProcess, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      if (lines.length > count) resolve(lines.slice(0, count));
    });
    child.once('exit', (code) => reject(new Error(`CLI exited with ${code} before printing: ${errors}`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

// Each test starts its own process, so they can run side by side.
describe.concurrent('the emulator CLI', () => {
  it('prints both base URLs and each demo user with role, API key and access token; the printed key works in both dialects', async () => {
    const lines = await firstLines(runCli(['--port', '0', '--transition-ms', '10']), 7);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? '')?.[1];
    expect(url).toBeDefined();
    expect(lines[1]).toBe(`GraphQL: ${url}/graphql`);
    expect(lines[2]).toMatch(new RegExp(`^v1 API: ${url}/v1 \\(Authorization: Bearer`));
    expect(lines[4]).toMatch(
      /^ {2}Ada Park .*individual account, administrator.*API key: demo-key-ada-individual {2}GraphQL access token: demo-token-ada-individual$/,
    );
    expect(lines[5]).toMatch(
      /Maya Chen .*team Orbital Labs, administrator.*API key: demo-key-maya-team-admin/,
    );
    expect(lines[6]).toMatch(/Sam Rivera .*team Orbital Labs, member.*API key: demo-key-sam-team-member/);
    const v1 = await fetch(`${url}/v1/machines?limit=120`, {
      headers: { Authorization: 'Bearer demo-key-ada-individual' },
    });
    expect(v1.status).toBe(200);
    expect(((await v1.json()) as { items: unknown[] }).items.length).toBeGreaterThan(0);
    const response = await fetch(`${url}/machines/getMachines?state=ready`, {
      headers: { 'X-Api-Key': 'demo-key-ada-individual' },
    });
    const machines = (await response.json()) as Array<{ name: string }>;
    expect(machines.map((machine) => machine.name)).toEqual(['ada-workstation']);
  });

  it('refuses an unknown flag with a clear message and exit code 2', async () => {
    const { code, stderr } = await exitOf(runCli(['--prot', '4010']));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--prot/);
    expect(stderr).toMatch(/usage: npm run emulator/);
  });

  it('refuses a bad number with exit code 2', async () => {
    const { code, stderr } = await exitOf(runCli(['--fail-rate', '1.5']));
    expect(code).toBe(2);
    expect(stderr).toContain('--fail-rate must be a share from 0 to 1, got "1.5"');
  });

  it('refuses an invalid seed file naming the bad path', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'emulator-seed-'));
    const file = join(directory, 'seed.json');
    await writeFile(
      file,
      JSON.stringify({ users: [{ id: 'u1', email: 'nope', firstname: 'A', lastname: 'B' }] }),
    );
    const { code, stderr } = await exitOf(runCli(['--port', '0', '--seed', file]));
    expect(code).toBe(2);
    expect(stderr).toContain('users[0].email');
  });
});
