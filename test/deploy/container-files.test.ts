// The Dockerfile, .dockerignore and compose.yaml, checked for what a deployment relies on, on any machine:
// these checks read the files and run the image's health command. container-image.test.ts builds and
// runs the image itself where a Docker daemon and the base image are at hand.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { dockerfileStages, runtimeEnvironment } from '../support/dockerfile.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(resolve(ROOT, path), 'utf8');

const stages = dockerfileStages(read('Dockerfile'));
const runtime = stages.at(-1) ?? [];
const inRuntime = (keyword: string) => runtime.filter((instruction) => instruction.keyword === keyword);
const SECRET_VARIABLES =
  /\b(SLACK_BOT_TOKEN|SLACK_SIGNING_SECRET|SLACK_APP_TOKEN|VAULT_KEY|DATABASE_URL|METRICS_TOKEN|\w*PASSWORD\w*)\b/;

describe('Dockerfile', () => {
  it('builds in one stage and runs from a second that copies only dist/ and production node_modules', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.slice(0, -1).flat();
    expect(build.some((step) => step.keyword === 'RUN' && step.args.includes('npm run build'))).toBe(true);
    expect(build.some((step) => step.keyword === 'RUN' && /--omit=dev/.test(step.args))).toBe(true);

    const copies = inRuntime('COPY').map((step) => step.args);
    expect(copies).toContainEqual(expect.stringMatching(/^--from=build \/app\/node_modules /));
    expect(copies).toContainEqual(expect.stringMatching(/^--from=build \/app\/dist /));
    // Nothing from the build context but package.json: no sources, no tests, no tools.
    expect(copies.filter((args) => !args.startsWith('--from='))).toEqual(['package.json ./']);
    expect(inRuntime('RUN').map((step) => step.args)).not.toContainEqual(expect.stringContaining('npm'));
  });

  it('runs as an unprivileged user, node as PID 1 in exec form so SIGTERM reaches it', () => {
    const users = inRuntime('USER').map((step) => step.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const commands = inRuntime('CMD');
    expect(commands).toHaveLength(1);
    const command = JSON.parse(commands[0]?.args ?? '') as string[];
    expect(command[0]).toBe('node');
    expect(command.at(-1)).toBe('dist/main.js');
    expect(inRuntime('ENTRYPOINT')).toEqual([]);
    const stopSignal = inRuntime('STOPSIGNAL').map((step) => step.args);
    expect(stopSignal.every((signal) => signal === 'SIGTERM')).toBe(true);
  });

  it('caps the heap with NODE_OPTIONS, which a deployment can override', () => {
    // Without a cap V8 sizes its heap from the host's memory and let garbage reach 207-250 MB of RSS at
    // 10,000 watches before collecting (bench/memory runs with the image's NODE_OPTIONS).
    const options = runtimeEnvironment(read('Dockerfile')).NODE_OPTIONS ?? '';
    const [, megabytes] = /--max-old-space-size=(\d+)/.exec(options) ?? [];
    expect(Number(megabytes)).toBeGreaterThanOrEqual(256);
    // Node 24's V8 lets each young-generation semi-space grow to 64 MB under this cap (RSS 310 MB at
    // 10,000 watches); the image holds them at 8 MB, which keeps that load under 200 MB (docs/deploy.md).
    const [, semiSpace] = /--max-semi-space-size=(\d+)/.exec(options) ?? [];
    expect(Number(semiSpace)).toBeGreaterThan(0);
    expect(Number(semiSpace)).toBeLessThanOrEqual(8);
    // In the environment, not the command: `docker run -e NODE_OPTIONS=...` replaces it.
    const command = JSON.parse(inRuntime('CMD')[0]?.args ?? '[]') as string[];
    expect(command.join(' ')).not.toContain('--max-old-space-size');
  });

  it("bounds glibc's allocator: two arenas, large blocks mapped alone and returned when freed", () => {
    // Outside V8's heap, each thread's arena kept what it had freed: at 10,000 watches RSS fell from
    // 212-225 MB to 186-206 MB with these (docs/deploy.md). bench/memory and the ack benchmark start the
    // bot with this environment, so it is what they measure.
    const environment = runtimeEnvironment(read('Dockerfile'));
    expect(Number(environment.MALLOC_ARENA_MAX)).toBeGreaterThanOrEqual(1);
    expect(Number(environment.MALLOC_ARENA_MAX)).toBeLessThanOrEqual(2);
    // Set, each one also turns off glibc's sliding mmap threshold.
    expect(Number(environment.MALLOC_MMAP_THRESHOLD_)).toBe(128 * 1024);
    expect(Number(environment.MALLOC_TRIM_THRESHOLD_)).toBe(128 * 1024);
  });

  it('sets no secret in a layer: no ENV or ARG names a credential', () => {
    for (const step of stages.flat()) {
      if (step.keyword === 'ENV' || step.keyword === 'ARG') expect(step.args).not.toMatch(SECRET_VARIABLES);
    }
  });

  it('has a HEALTHCHECK whose command passes while /livez answers and fails when nothing listens', async () => {
    const healthchecks = inRuntime('HEALTHCHECK');
    expect(healthchecks).toHaveLength(1);
    const [, json = ''] = /\bCMD (\[.*\])$/.exec(healthchecks[0]?.args ?? '') ?? [];
    const [program, ...args] = JSON.parse(json) as string[];
    expect(program).toBe('node');
    expect(args.join(' ')).toContain('/livez');

    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(request.url === '/livez' ? 200 : 404).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = (server.address() as AddressInfo).port;
    const run = () =>
      new Promise<number>((done) => {
        execFile(process.execPath, args, { env: { PORT: String(port) }, timeout: 10_000 }, (error) =>
          done(error === null ? 0 : typeof error.code === 'number' ? error.code : -1),
        );
      });
    try {
      expect(await run()).toBe(0);
      expect(paths).toEqual(['/livez']);
    } finally {
      await new Promise((done) => server.close(done));
    }
    expect(await run()).toBe(1);
  });
});

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('keeps secrets, local state, dependencies and history out of the build context', () => {
    for (const excluded of ['.env', '.git', 'node_modules', 'data', '*.db', 'dist']) {
      expect(patterns).toContain(excluded);
    }
  });

  it('keeps what the Dockerfile copies from the context', () => {
    const copied = [
      ...new Set(
        stages
          .flat()
          .filter((step) => step.keyword === 'COPY' && !step.args.startsWith('--from='))
          .flatMap((step) => step.args.split(' ').slice(0, -1)),
      ),
    ];
    expect(copied.sort()).toEqual(
      ['package-lock.json', 'package.json', 'src', 'tsconfig.build.json', 'tsconfig.json'].sort(),
    );
    for (const path of copied) expect(patterns).not.toContain(path);
  });
});

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  env_file?: string | string[];
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number };
  stop_grace_period?: string;
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml')) as {
    services: Record<string, ComposeService>;
    volumes?: Record<string, unknown>;
  };
  const postgres = compose.services.postgres;
  const bot = compose.services.bot;

  it('runs PostgreSQL with its data on a named volume, a health check, and no password written in', () => {
    expect(postgres?.image).toMatch(/^postgres:\d+/);
    const [volume] = (postgres?.volumes ?? []).filter((entry) => entry.endsWith(':/var/lib/postgresql/data'));
    expect(volume).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(volume?.split(':')[0]);
    expect(JSON.stringify(postgres?.healthcheck?.test)).toContain('pg_isready');
    expect(postgres?.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
  });

  it('runs two bot replicas from the image, sharing that database once it is healthy', () => {
    expect(bot?.build).toBe('.');
    expect(bot?.deploy?.replicas).toBe(2);
    expect(bot?.depends_on?.postgres?.condition).toBe('service_healthy');
    expect([bot?.env_file].flat()).toContain('.env');
    // The password is interpolated from .env; any stand-in makes the URL parseable.
    const url = new URL(bot?.environment?.DATABASE_URL?.replace(/\$\{POSTGRES_PASSWORD\}/, 'x') ?? '');
    expect(url.protocol).toBe('postgres:');
    expect(url.hostname).toBe('postgres');
    expect(url.pathname).toBe(`/${postgres?.environment?.POSTGRES_DB}`);
    expect(url.username).toBe(postgres?.environment?.POSTGRES_USER);
  });

  it('publishes one host port per replica, and lets a stopping bot finish its drain', () => {
    const [published, container] = (bot?.ports?.[0] ?? '').split(/:(?=\d+$)/);
    expect(container).toBe(bot?.environment?.PORT);
    const [first, last] = (/(\d+)-(\d+)\}?$/.exec(published ?? '') ?? []).slice(1).map(Number);
    expect((last ?? 0) - (first ?? 0) + 1).toBe(bot?.deploy?.replicas);
    // src/main.ts: 5 s of draining + 10 s for requests under way + 5 s before a forced exit.
    const [, seconds] = /^(\d+)s$/.exec(bot?.stop_grace_period ?? '') ?? [];
    expect(Number(seconds)).toBeGreaterThan(20);
  });
});
