// The sandbox's VAULT_KEY: generated on the first run and kept in a file only its owner may read, so
// that keys linked in the sandbox stay readable across restarts without anyone setting a variable.
// Only the sandbox does this; connected to Slack, VAULT_KEY must come from the environment.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const KEY_BYTES = 32;
const OWNER_ONLY = 0o600;

export interface VaultKeyFile {
  key: Buffer;
  /** True when this call generated the key (first run, or the file was deleted). */
  created: boolean;
  /** True when the file was readable by others and its permissions were narrowed to 0600. */
  tightened: boolean;
}

export async function loadOrCreateVaultKey(path: string): Promise<VaultKeyFile> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const fresh = randomBytes(KEY_BYTES);
  try {
    // `wx` fails if the file exists, so two starts at once cannot overwrite each other's key.
    await writeFile(path, `${fresh.toString('base64')}\n`, { flag: 'wx', mode: OWNER_ONLY });
    // The mode given at creation is reduced by the umask; set it exactly.
    await chmod(path, OWNER_ONLY);
    return { key: fresh, created: true, tightened: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const mode = (await stat(path)).mode & 0o777;
  const tightened = (mode & 0o077) !== 0;
  if (tightened) await chmod(path, OWNER_ONLY);
  const text = (await readFile(path, 'utf8')).trim();
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== KEY_BYTES) {
    throw new Error(
      `${path} does not hold a ${KEY_BYTES}-byte base64 key. Delete it to have a new one generated ` +
        '(API keys linked in the sandbox must then be linked again).',
    );
  }
  return { key, created: false, tightened };
}
