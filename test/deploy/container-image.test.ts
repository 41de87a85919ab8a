// The image for real: built from the Dockerfile, run with host networking against the fake Slack and the
// Paperspace emulator, stopped the way an orchestrator stops it. It needs a Docker daemon and the base
// image; where either is missing the suite is skipped and says why. DOCKER_NODE_IMAGE names another base
// image (any Debian-based Node 24 image with npm and a `node` user), for machines without registry access.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { createSlackRequests, send } from '../support/slack-requests.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE_IMAGE = process.env.DOCKER_NODE_IMAGE ?? 'node:24-bookworm-slim';
/** npm ci and tsc inside the build; minutes on a loaded machine. */
const BUILD_TIMEOUT_MS = 900_000;
const BOT_TOKEN = 'xoxb-image-bot-token';
const SIGNING_SECRET = 'image-bot-signing-secret';
const VAULT_KEY = randomBytes(32).toString('base64');

function dockerUnavailable(): string | undefined {
  const quietly = (args: string[]) =>
    execFileSync('docker', args, { stdio: 'ignore', timeout: 60_000, cwd: ROOT });
  try {
    quietly(['info']);
  } catch {
    return 'no Docker daemon answers `docker info`';
  }
  try {
    quietly(['image', 'inspect', NODE_IMAGE]);
  } catch {
    try {
      quietly(['pull', NODE_IMAGE]);
    } catch {
      return `the base image ${NODE_IMAGE} is neither present nor pullable (set DOCKER_NODE_IMAGE to a local one)`;
    }
  }
  return undefined;
}

const skipReason = dockerUnavailable();
if (skipReason !== undefined) {
  process.stderr.write(`Container image tests skipped: ${skipReason}.\n`);
}

const docker = async (args: string[], timeout = 60_000) =>
  (
    await promisify(execFile)('docker', args, { cwd: ROOT, timeout, maxBuffer: 64 * 1024 * 1024 })
  ).stdout.trim();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

describe.skipIf(skipReason !== undefined)('the container image', () => {
  const tag = `paperspace-bot:test-${randomBytes(4).toString('hex')}`;
  const container = `paperspace-bot-test-${randomBytes(4).toString('hex')}`;
  let slack: FakeSlack;
  let emulator: RunningEmulator;

  beforeAll(async () => {
    await docker(['build', '--build-arg', `NODE_IMAGE=${NODE_IMAGE}`, '--tag', tag, '.'], BUILD_TIMEOUT_MS);
    slack = await startFakeSlack({ botToken: BOT_TOKEN });
    emulator = await startEmulator({});
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await docker(['rm', '--force', container]).catch(() => undefined);
    await docker(['image', 'rm', '--force', tag]).catch(() => undefined);
    await Promise.allSettled([slack?.close(), emulator?.close()]);
  }, 60_000);

  it('holds the compiled bot and production dependencies only', async () => {
    const listing = await docker([
      'run',
      '--rm',
      '--entrypoint',
      'sh',
      tag,
      '-c',
      'ls -A /app; test -e /app/node_modules/tsx && echo has-tsx; test -e /app/node_modules/vitest && echo has-vitest; id -u',
    ]);
    const lines = listing.split('\n');
    expect(lines.slice(0, -1).sort()).toEqual(['data', 'dist', 'node_modules', 'package.json']);
    expect(Number(lines.at(-1))).not.toBe(0);
  });

  it('serves Slack as a non-root user, turns healthy, and on docker stop drains and exits 0', async () => {
    const port = await freePort();
    await docker([
      'run',
      '--detach',
      '--name',
      container,
      '--network',
      'host',
      '--env',
      `PORT=${port}`,
      '--env',
      `SLACK_BOT_TOKEN=${BOT_TOKEN}`,
      '--env',
      `SLACK_SIGNING_SECRET=${SIGNING_SECRET}`,
      '--env',
      `SLACK_API_URL=${slack.apiUrl}`,
      '--env',
      `PAPERSPACE_API_URL=${emulator.url}`,
      '--env',
      `PAPERSPACE_GRAPHQL_URL=${emulator.graphqlUrl}`,
      '--env',
      `VAULT_KEY=${VAULT_KEY}`,
      tag,
    ]);
    const base = `http://127.0.0.1:${port}`;
    await until(
      '/readyz in the container',
      async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined),
      30_000,
    );
    const requests = createSlackRequests({
      signingSecret: SIGNING_SECRET,
      responseUrl: slack.responseUrl,
      slack,
    });
    const help = requests.slashCommand({ text: 'help' });
    expect((await send(base, help)).status).toBe(200);
    expect(
      JSON.stringify(await slack.waitForResponse(help.responseUrlId ?? '', { timeoutMs: 5_000 })),
    ).toContain('/ps list');
    // The image's HEALTHCHECK runs every 10 s; the first one that passes makes the container healthy.
    await until(
      'the container to turn healthy',
      async () =>
        (await docker(['inspect', '--format', '{{.State.Health.Status}}', container])) === 'healthy'
          ? true
          : undefined,
      40_000,
    );

    const stopping = docker(['stop', '--time', '30', container], 60_000);
    const draining = await until(
      '/readyz to answer 503 after docker stop',
      async () => {
        const response = await fetch(`${base}/readyz`);
        return response.status === 503 ? await response.json() : undefined;
      },
      5_000,
    );
    expect(draining).toEqual({ status: 'unavailable', reason: 'shutting down' });
    await stopping;
    expect(await docker(['inspect', '--format', '{{.State.ExitCode}}', container])).toBe('0');
    const logs = await docker(['logs', container]);
    expect(logs).toContain('"msg":"bot stopped"');
    for (const secret of [BOT_TOKEN, SIGNING_SECRET, VAULT_KEY]) expect(logs).not.toContain(secret);
  }, 120_000);
});
