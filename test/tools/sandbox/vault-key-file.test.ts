// The sandbox's own vault key: created once, owner-only, reused on every later start.
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateVaultKey } from '../../../tools/sandbox/vault-key-file.js';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'sandbox-key-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('the sandbox vault key file', () => {
  it('is created on first use with a random 32-byte key that only its owner may read or write', async () => {
    const path = join(directory, 'data', 'sandbox-vault.key');
    const first = await loadOrCreateVaultKey(path);
    expect(first.created).toBe(true);
    expect(first.key).toHaveLength(32);
    expect(await modeOf(path)).toBe(0o600);
    expect(await modeOf(join(directory, 'data'))).toBe(0o700);
    expect((await readFile(path, 'utf8')).trim()).toBe(first.key.toString('base64'));
  });

  it('gives the same key on every later start, so linked accounts stay readable', async () => {
    const path = join(directory, 'sandbox-vault.key');
    const first = await loadOrCreateVaultKey(path);
    const second = await loadOrCreateVaultKey(path);
    expect(second.created).toBe(false);
    expect(second.key.equals(first.key)).toBe(true);
  });

  it('narrows a key file others could read back to 0600 and says so', async () => {
    const path = join(directory, 'sandbox-vault.key');
    await loadOrCreateVaultKey(path);
    await chmod(path, 0o644);
    const again = await loadOrCreateVaultKey(path);
    expect(again.tightened).toBe(true);
    expect(await modeOf(path)).toBe(0o600);
  });

  it('refuses a file that holds no 32-byte base64 key, naming the file and not its content', async () => {
    const path = join(directory, 'sandbox-vault.key');
    await writeFile(path, 'not-a-key-but-maybe-a-secret\n', { mode: 0o600 });
    const failure = loadOrCreateVaultKey(path);
    await expect(failure).rejects.toThrow(`${path} does not hold a 32-byte base64 key`);
    await expect(failure).rejects.not.toThrow('not-a-key-but-maybe-a-secret');
  });
});
