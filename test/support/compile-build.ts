// `npm run build`'s compilation (tsconfig.build.json) without its type check, which `npm run typecheck`
// does and which does not change the emitted JavaScript (isolatedModules). Shared by the compiled-bot
// test and the memory benchmark, which both run the bot as production does.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Compiles into a new directory under the ignored test/artifacts and returns it. Inside the repository,
 * so the compiled files find node_modules and package.json's "type": "module" exactly as dist/ does,
 * and a developer's own dist/ is left alone. The caller removes the directory.
 */
export async function compileBuild(prefix: string, timeoutMs: number): Promise<string> {
  await mkdir(join(ROOT, 'test/artifacts'), { recursive: true });
  const outDir = await mkdtemp(join(ROOT, `test/artifacts/${prefix}`));
  await promisify(execFile)(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--noCheck',
      '--outDir',
      outDir,
    ],
    { cwd: ROOT, timeout: timeoutMs },
  );
  return outDir;
}
