// One sandbox per data folder. A second `npm start` in the same checkout would open the same database
// beside the first (and, before this, recreated it for another dialect) and then fail on the port: it
// must instead say where the first one runs and touch nothing. The lock is a file created exclusively
// (`wx`) before anything else in the folder is read or written; it names the process and its page.
// A lock whose process is gone (a crash, a kill -9) is taken over.
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const LOCK_FILE = 'sandbox.lock';

interface LockContents {
  pid: number;
  /** The page, once it listens; the port asked for until then. */
  url: string;
}

/** Another sandbox runs on this data folder: the message says where, and how to run a second one. */
class SandboxAlreadyRunningError extends Error {
  override name = 'SandboxAlreadyRunningError';
}

export interface SandboxLock {
  /** Records the page's URL, so a second start can point at it. */
  announce(url: string): Promise<void>;
  release(): Promise<void>;
}

export async function lockSandbox(dataDir: string, expectedUrl: string): Promise<SandboxLock> {
  const path = join(dataDir, LOCK_FILE);
  const write = (url: string) =>
    writeFile(path, JSON.stringify({ pid: process.pid, url } satisfies LockContents), { mode: 0o600 });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.close();
      await write(expectedUrl);
      return { announce: write, release: () => rm(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = await readLock(path);
    if (holder !== undefined && isAlive(holder.pid)) {
      throw new SandboxAlreadyRunningError(
        `A sandbox is already running from this folder at ${holder.url} (process ${holder.pid}): open that ` +
          'page, or stop it with Ctrl-C before starting it again. Nothing was changed. To run a second ' +
          'sandbox beside it, start it from another checkout with another PORT (PORT=3100 npm start).',
      );
    }
    // The process that held it is gone: its lock is stale.
    await rm(path, { force: true });
  }
  throw new SandboxAlreadyRunningError(`Another sandbox keeps taking ${path}: stop it and try again.`);
}

async function readLock(path: string): Promise<LockContents | undefined> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    const { pid, url } = parsed as Partial<LockContents>;
    return typeof pid === 'number' && typeof url === 'string' ? { pid, url } : undefined;
  } catch {
    // Half written by a sandbox starting this very moment, or not ours: treat as held by nobody known.
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
