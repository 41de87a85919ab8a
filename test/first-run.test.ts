// The README's `npm test` must pass on a fresh clone, which has no shared/ directory beside it: the
// tests that need an outside input skip with a line saying how to run them, unless CI is set.
// Checked by copying the checkout somewhere with no shared/ above it and running the suite that needs
// Slack's manifest schema there.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const COPIED = ['src', 'test', 'tools', 'manifest.yml', 'package.json', 'tsconfig.json', 'vitest.config.ts'];

let scratch: string;
let clone: string;

beforeAll(async () => {
  // One level down, so that "beside the checkout" is inside the scratch folder and not tmpdir itself.
  scratch = await mkdtemp(join(tmpdir(), 'ps-fresh-clone-'));
  clone = join(scratch, 'checkout');
  await Promise.all(
    COPIED.map((entry) => cp(join(repoRoot, entry), join(clone, entry), { recursive: true })),
  );
  await symlink(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function manifestSuite(ci: string): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: ci };
  delete env.SLACK_MANIFEST_SCHEMA_DIR;
  try {
    const { stdout, stderr } = await run('npx', ['vitest', 'run', 'test/slack/manifest.test.ts'], {
      cwd: clone,
      env,
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

describe('a fresh clone with no shared/ beside it', () => {
  it('passes, skipping the manifest schema tests with a line that says how to run them', async () => {
    const { code, output } = await manifestSuite('');
    expect(output).toContain("Manifest schema tests skipped: Slack's manifest schema was not found");
    expect(output).toContain('SLACK_MANIFEST_SCHEMA_DIR');
    expect(output).toMatch(/2 skipped/);
    expect(code).toBe(0);
  }, 60_000);

  it('fails with CI set, naming what is missing', async () => {
    const { code, output } = await manifestSuite('true');
    expect(output).toContain("CI is set but Slack's manifest schema was not found");
    expect(code).not.toBe(0);
  }, 60_000);
});
