// The production build: src/ compiled by tsconfig.build.json and run as `node dist/main.js`, the way the
// container image runs it. The bot is started as a child process against the fake Slack and the
// Paperspace emulator, so what is checked is the compiled output, not the TypeScript the other tests load.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.js';
import { compileBuild } from '../support/compile-build.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { createSlackRequests, send } from '../support/slack-requests.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BOT_TOKEN = 'xoxb-compiled-bot-token';
const SIGNING_SECRET = 'compiled-bot-signing-secret';
const VAULT_KEY = randomBytes(32).toString('base64');
/** Compiling takes most of a minute on a loaded machine; the checks after it take seconds. */
const BUILD_TIMEOUT_MS = 180_000;

let outDir: string;

beforeAll(async () => {
  outDir = await compileBuild('dist-', BUILD_TIMEOUT_MS);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Every module specifier a compiled file imports (static, re-exported or dynamic). */
function specifiers(code: string): string[] {
  // A specifier never spans a line: a log message that ends in "from" before its closing quote is not one.
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"\n]+)\1/g;
  return [...code.matchAll(pattern)].map((match) => match[2] ?? '');
}

const packageName = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');

describe('npm run build', () => {
  it('compiles src/ alone, with source maps: no emulator, no sandbox, nothing from tools/ or test/', async () => {
    const files = (await filesUnder(outDir)).map((file) => relative(outDir, file));
    const sources = (await filesUnder(join(ROOT, 'src')))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => relative(join(ROOT, 'src'), file).replace(/\.ts$/, '.js'));
    expect(files.filter((file) => file.endsWith('.js')).sort()).toEqual(sources.sort());
    expect(files.filter((file) => file.endsWith('.js.map')).length).toBe(sources.length);
    expect(files.filter((file) => /emulator|sandbox/i.test(file))).toEqual([]);

    for (const file of files.filter((name) => name.endsWith('.js'))) {
      const code = await readFile(join(outDir, file), 'utf8');
      for (const specifier of specifiers(code).filter((name) => name.startsWith('.'))) {
        const target = resolve(dirname(join(outDir, file)), specifier);
        expect(relative(outDir, target), `${file} imports ${specifier}`).not.toMatch(/^\.\./);
        expect(existsSync(target), `${file} imports ${specifier}, which was not compiled`).toBe(true);
      }
    }
  });

  it('imports exactly the packages listed in dependencies, so the image can leave devDependencies out', async () => {
    const imported = new Set<string>();
    for (const file of (await filesUnder(outDir)).filter((name) => name.endsWith('.js'))) {
      for (const specifier of specifiers(await readFile(file, 'utf8'))) {
        if (!specifier.startsWith('.') && !specifier.startsWith('node:'))
          imported.add(packageName(specifier));
      }
    }
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect([...imported].sort()).toEqual(Object.keys(manifest.dependencies).sort());
  });
});

interface Child {
  process: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startCompiledBot(env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--enable-source-maps', join(outDir, 'main.js')], {
    // Only what is given here: a developer's own SLACK_* variables must not leak into the test.
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: outDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    child.once('exit', (code, signal) => done({ code, signal }));
  });
  return { process: child, output: () => output, exited };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function probe(url: string): Promise<{ status: number; body: unknown } | undefined> {
  try {
    const response = await fetch(url);
    return { status: response.status, body: await response.json() };
  } catch {
    return undefined;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

describe('node dist/main.js', () => {
  let slack: FakeSlack;
  let emulator: RunningEmulator;
  let dataDir: string;
  const children: Child[] = [];

  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: BOT_TOKEN });
    emulator = await startEmulator({});
    dataDir = await mkdtemp(join(ROOT, 'test/artifacts/compiled-data-'));
  });

  afterAll(async () => {
    for (const child of children) child.process.kill('SIGKILL');
    await Promise.allSettled([slack?.close(), emulator?.close()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('without Slack credentials, exits 1 with one line saying what to set', async () => {
    const child = startCompiledBot({});
    children.push(child);
    const { code } = await child.exited;
    expect(code).toBe(1);
    const lines = child.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET');
    expect(lines[0]).toContain('npm start');
  });

  it('becomes ready, answers a signed /ps help, and on SIGTERM drains with /readyz at 503, then exits 0', async () => {
    const port = await freePort();
    const child = startCompiledBot({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      PAPERSPACE_API_URL: emulator.url,
      PAPERSPACE_GRAPHQL_URL: emulator.graphqlUrl,
      VAULT_KEY,
      DATABASE_URL: `sqlite:${join(dataDir, 'bot.db')}`,
      PORT: String(port),
    });
    children.push(child);
    const base = `http://127.0.0.1:${port}`;

    const ready = await until(
      `/readyz (output so far: ${child.output()})`,
      async () => {
        const answer = await probe(`${base}/readyz`);
        return answer?.status === 200 ? answer : undefined;
      },
      15_000,
    );
    expect(ready.body).toEqual({ status: 'ok' });
    expect((await probe(`${base}/livez`))?.status).toBe(200);

    const requests = createSlackRequests({
      signingSecret: SIGNING_SECRET,
      responseUrl: slack.responseUrl,
      slack,
    });
    const help = requests.slashCommand({ text: 'help' });
    expect((await send(base, help)).status).toBe(200);
    const answer = await slack.waitForResponse(help.responseUrlId ?? '', { timeoutMs: 5_000 });
    expect(JSON.stringify(answer)).toContain('/ps list');
    const forged = requests.slashCommand({ text: 'help' }, { badSignature: true });
    expect((await send(base, forged)).status).toBe(401);

    child.process.kill('SIGTERM');
    // HTTP mode keeps serving a few seconds after SIGTERM, with readiness failing, for load balancers.
    const draining = await until(
      '/readyz to answer 503 after SIGTERM',
      async () => {
        const answer = await probe(`${base}/readyz`);
        return answer?.status === 503 ? answer : undefined;
      },
      3_000,
    );
    expect(draining.body).toEqual({ status: 'unavailable', reason: 'shutting down' });
    expect((await probe(`${base}/livez`))?.status).toBe(200);

    expect(await child.exited).toEqual({ code: 0, signal: null });
    const output = child.output();
    expect(output).toContain('"msg":"bot stopped"');
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, VAULT_KEY]) expect(output).not.toContain(secret);
  }, 40_000);
});
