// Memory of the whole service with 10,000 active watches, as production runs it: src/ compiled by the
// build's own configuration and started as `node --enable-source-maps dist/main.js` with the image's
// runtime environment, NODE_OPTIONS and MALLOC_* (the container image's command and environment; it is
// the only process production runs), with its SQLite database holding 200 linked people and 50 active watches each (the most `/ps wait` allows a person). The figure is the sum
// of the RSS of that process and every process it started, sampled while it polls every watch for a
// few ticks. The reference is the same build on the same database before the watches were made.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMachineWatcher } from '../../src/features/machines/machine-watcher.js';
import { openStore } from '../../src/store/store.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';
import { compileBuild } from '../../test/support/compile-build.js';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { type RunningEmulator, startEmulator } from '../../tools/emulator/index.js';
import type { BenchmarkResult } from '../report.js';
import { BENCH_BOT_TOKEN, BENCH_POLL_INTERVAL_MS, BENCH_SIGNING_SECRET } from '../support/bench-bot.js';
import {
  addStartingMachines,
  BENCH_TEAM_ID,
  type BenchAccount,
  benchAccounts,
  benchSeed,
  linkAccounts,
} from '../support/bench-world.js';
import { describeImageRuntime, IMAGE_RUNTIME_ENV } from '../support/image-environment.js';
import { formatCount, formatMb, formatMs } from '../support/stats.js';
import { processTreeRss, type TreeRss } from './process-tree-rss.js';

// 50 watches each: the most one person may have (MAX_ACTIVE_WATCHES_PER_PERSON), so the bot accepts all.
const QUICK = process.env.BENCH_QUICK === '1';
const PEOPLE = QUICK ? 20 : 200;
const WATCHES_PER_PERSON = 50;
const WATCHES = PEOPLE * WATCHES_PER_PERSON;
/** Poll ticks the service runs while its memory is sampled. */
const TICKS = QUICK ? 2 : 4;
const SAMPLE_MS = 200;
/** No machine finishes starting while the benchmark runs (the emulator runs on the real clock). */
const TRANSITION_MS = 24 * 60 * 60_000;
const GOAL_RSS_BYTES = 200 * 1024 * 1024;
const BUILD_TIMEOUT_MS = 300_000;
const READY_TIMEOUT_MS = 60_000;

const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

interface Observation {
  /** Largest sum of RSS over the process tree while it polled. */
  peakBytes: number;
  /** The sample with the largest RSS, split into mapped files and anonymous memory. */
  peak: TreeRss;
  /** Sum of RSS at the end, after the last tick. */
  endBytes: number;
  processes: number;
  /** Machine lists (polls) each person's key made while observed, by emulator user id. */
  pollsByPerson: Map<string, number>;
}

interface Service {
  outDir: string;
  env: Record<string, string>;
  emulator: RunningEmulator;
}

/** Starts the compiled bot, waits for it to be ready, samples its memory for TICKS poll intervals, stops it. */
async function observe({ outDir, env, emulator }: Service): Promise<Observation> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--enable-source-maps', join(outDir, 'main.js')], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    cwd: outDir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString('utf8');
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  try {
    const readySince = Date.now();
    for (;;) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (child.exitCode !== null || Date.now() - readySince > READY_TIMEOUT_MS)
        throw new Error(`the compiled bot did not become ready: ${errors.slice(0, 500)}`);
      await delay(100);
    }
    const firstLogged = emulator.state.requests().length;
    const lastBefore = emulator.state.requests().at(-1);
    let peak: TreeRss = { bytes: 0, fileBytes: 0, anonBytes: 0, processes: 0 };
    let last = peak;
    const until = Date.now() + TICKS * BENCH_POLL_INTERVAL_MS;
    while (Date.now() < until) {
      if (child.pid === undefined) throw new Error('the compiled bot has no pid');
      last = await processTreeRss(child.pid);
      if (last.bytes > peak.bytes) peak = last;
      await delay(SAMPLE_MS);
    }
    const log = emulator.state.requests();
    const from = lastBefore === undefined ? firstLogged : log.lastIndexOf(lastBefore) + 1;
    const pollsByPerson = new Map<string, number>();
    for (const entry of log.slice(from)) {
      if (entry.method !== 'GET' || entry.userId === null || entry.status !== 200) continue;
      pollsByPerson.set(entry.userId, (pollsByPerson.get(entry.userId) ?? 0) + 1);
    }
    return { peakBytes: peak.bytes, peak, endBytes: last.bytes, processes: last.processes, pollsByPerson };
  } finally {
    // SIGINT: stop at once, without the load balancer drain SIGTERM waits out.
    child.kill('SIGINT');
    await exited;
  }
}

async function withVault(
  databaseUrl: string,
  vaultKey: Buffer,
  run: (vault: KeyVault, store: Awaited<ReturnType<typeof openStore>>) => Promise<void>,
): Promise<void> {
  const store = await openStore(databaseUrl);
  try {
    await run(createKeyVault({ keys: [vaultKey], store, now: Date.now }), store);
  } finally {
    await store.close();
  }
}

/** WATCHES_PER_PERSON watches for every person, one per starting machine, made as `/ps wait` makes them. */
async function makeWatches(
  databaseUrl: string,
  vaultKey: Buffer,
  accounts: readonly BenchAccount[],
  machineIds: string[][],
): Promise<void> {
  await withVault(databaseUrl, vaultKey, async (_vault, store) => {
    const watcher = createMachineWatcher({ store, now: Date.now });
    let made = 0;
    for (let index = 0; index < WATCHES_PER_PERSON; index += 1) {
      for (const [person, { slackUser, account }] of accounts.entries()) {
        const machineId = machineIds[person]?.[index];
        if (machineId === undefined) throw new Error(`person ${person} has no machine ${index}`);
        made += 1;
        await watcher.watch({
          user: slackUser,
          machineId,
          machineName: `${account.userId}-${index + 1}`,
          targetState: 'serviceready',
          channel: `C0BENCH${person}`,
          messageTs: `1700000000.${String(made).padStart(6, '0')}`,
          initialState: 'starting',
        });
      }
    }
  });
}

export async function runMemory(): Promise<BenchmarkResult> {
  const accounts = benchAccounts(PEOPLE);
  const emulator = await startEmulator({ seed: benchSeed(accounts), transitionMs: TRANSITION_MS });
  const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID, botToken: BENCH_BOT_TOKEN });
  const dataDir = await mkdtemp(join(tmpdir(), 'ps-bot-bench-memory-'));
  let outDir: string | undefined;
  try {
    const buildStarted = Date.now();
    outDir = await compileBuild('bench-dist-', BUILD_TIMEOUT_MS);
    const buildMs = Date.now() - buildStarted;
    const databaseUrl = `sqlite:${join(dataDir, 'bot.db')}`;
    const vaultKey = randomBytes(32);
    const service: Service = {
      outDir,
      emulator,
      env: {
        ...IMAGE_RUNTIME_ENV,
        SLACK_BOT_TOKEN: BENCH_BOT_TOKEN,
        SLACK_SIGNING_SECRET: BENCH_SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        PAPERSPACE_API_URL: emulator.url,
        PAPERSPACE_GRAPHQL_URL: emulator.graphqlUrl,
        VAULT_KEY: vaultKey.toString('base64'),
        DATABASE_URL: databaseUrl,
        POLL_INTERVAL_MS: String(BENCH_POLL_INTERVAL_MS),
        LOG_LEVEL: 'info',
      },
    };
    // The service's own start-up makes the schema; the people are linked through the vault, as /ps login does.
    await withVault(databaseUrl, vaultKey, (vault) => linkAccounts(vault, accounts));
    const before = await observe(service);
    const machineIds = addStartingMachines(emulator, accounts, WATCHES_PER_PERSON);
    await makeWatches(databaseUrl, vaultKey, accounts, machineIds);
    const after = await observe(service);
    let activeWatches = 0;
    await withVault(databaseUrl, vaultKey, async (_vault, store) => {
      activeWatches = await store.watches.countActive();
    });
    return report(before, after, activeWatches, buildMs);
  } finally {
    await slack.close();
    await emulator.close();
    await rm(dataDir, { recursive: true, force: true });
    if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
  }
}

/** Polls per person, with 0 for a person never polled. */
function benchPeople(observation: Observation): number[] {
  return benchAccounts(PEOPLE).map(({ account }) => observation.pollsByPerson.get(account.userId) ?? 0);
}

function report(
  before: Observation,
  after: Observation,
  activeWatches: number,
  buildMs: number,
): BenchmarkResult {
  // Each person's watches are polled with one machine list per tick. TICKS poll intervals hold at
  // least TICKS - 1 whole ticks, whatever their phase, so a person listed fewer times was skipped.
  const wholeTicks = TICKS - 1;
  const polled = benchPeople(after).filter((count) => count >= wholeTicks).length;
  const fewest = Math.min(...benchPeople(after));
  return {
    name: 'memory',
    title: `Whole-service memory with ${WATCHES.toLocaleString('en-US')} active watches`,
    setup:
      `The compiled build (tsconfig.build.json) started as production starts it, \`node --enable-source-maps ` +
      `dist/main.js\` with the image's runtime environment (\`${describeImageRuntime()}\`), in HTTP mode on SQLite with ${PEOPLE} linked people and ${WATCHES_PER_PERSON} active ` +
      `watches each (the most /ps wait allows), the emulator and the fake Slack in the benchmark's process. ` +
      `RSS = the sum over the bot's process and every process it started (/proc), sampled every ` +
      `${SAMPLE_MS} ms for ${TICKS} poll intervals of ${BENCH_POLL_INTERVAL_MS / 1000} s once /readyz answers. ` +
      'Reference = the same build on the same database before the watches were made.',
    rows: [
      {
        metric: 'peak RSS, all processes, while polling',
        measured: formatMb(after.peakBytes),
        reference: formatMb(before.peakBytes),
        ratio: after.peakBytes / before.peakBytes,
        goal: `< ${formatMb(GOAL_RSS_BYTES)}`,
        pass: after.peakBytes < GOAL_RSS_BYTES,
      },
      {
        metric: 'RSS, all processes, after the last tick',
        measured: formatMb(after.endBytes),
        reference: formatMb(before.endBytes),
        ratio: after.endBytes / before.endBytes,
        goal: `< ${formatMb(GOAL_RSS_BYTES)}`,
        pass: after.endBytes < GOAL_RSS_BYTES,
      },
      {
        metric: 'of the peak, mapped files (node executable, libraries)',
        measured: formatMb(after.peak.fileBytes),
        reference: formatMb(before.peak.fileBytes),
        ratio: after.peak.fileBytes / before.peak.fileBytes,
        goal: '',
      },
      {
        metric: 'of the peak, anonymous (V8 heap, allocator)',
        measured: formatMb(after.peak.anonBytes),
        reference: formatMb(before.peak.anonBytes),
        ratio: after.peak.anonBytes / before.peak.anonBytes,
        goal: '',
      },
      {
        metric: 'processes',
        measured: formatCount(after.processes),
        reference: formatCount(before.processes),
        goal: '',
      },
      {
        metric: 'active watches',
        measured: formatCount(activeWatches),
        reference: '',
        goal: formatCount(WATCHES),
        pass: activeWatches === WATCHES,
      },
      {
        metric: `people polled at least ${wholeTicks} times in ${TICKS} poll intervals`,
        measured: formatCount(polled),
        reference: formatCount(PEOPLE),
        ratio: polled / PEOPLE,
        goal: 'all',
        pass: polled === PEOPLE,
      },
      { metric: 'fewest polls of one person', measured: formatCount(fewest), reference: '', goal: '' },
      { metric: 'compiling src/', measured: formatMs(buildMs), reference: '', goal: '' },
    ],
    notes: [
      "Production runs one process (the container image's command); the sum over its process tree would " +
        'include any helper it started. Without --expose-gc the RSS is what production sees, garbage included.',
      "Mapped files are mostly the node executable's own code, paged in as it runs (Node 24's is larger " +
        "than Node 20's); anonymous memory is what the bot's work and the runtime's settings move.",
      "A person's watches are all polled with one machine list per tick, so every person listed in every " +
        `whole tick means every watch was (${TICKS} intervals hold at least ${TICKS - 1} whole ticks).`,
    ],
  };
}
