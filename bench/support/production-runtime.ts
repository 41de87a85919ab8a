// The benchmarks measure the bot on the runtime it is deployed on: the image's Node 24 (Dockerfile,
// `engines`), whatever Node runs `npm run bench`. Node versions differ in what a request costs: on
// Node 20 every promise pays AsyncLocalStorage's hooks (the request scope), which Node 24's
// AsyncContextFrame does away with, and V8 compiles the same code differently. Figures measured on a
// runtime production never runs would be nobody's figures.
//
// On any other Node, Node 24 is installed from the npm registry's `node` package (its binary and headers)
// into a cache folder outside the checkout, with the checkout's dependencies installed by it from the
// lockfile (better-sqlite3 compiled for Node 24's ABI when no prebuilt binary fits: minutes, once per
// lockfile). The benchmarks then run there, from a fresh copy of the checkout's files, and write their
// results into the checkout's bench/RESULTS.md. BENCH_RUNTIME=current runs them on the Node at hand.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, relative, sep } from 'node:path';

/** The major version of Node in the image and in `engines` (a later one is not production's either). */
const PRODUCTION_NODE_MAJOR = 24;

/** Not copied into the runtime's checkout: its own dependencies, history, and build or test output. */
const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'coverage', 'data', join('test', 'artifacts')]);

export function runsOnProductionNode(): boolean {
  const major = Number(process.versions.node.split('.')[0]);
  return major === PRODUCTION_NODE_MAJOR || process.env.BENCH_RUNTIME === 'current';
}

interface Runtime {
  /** Folder of the Node 24 binary (bin/node, bin/npm) and its headers. */
  nodeHome: string;
  /** The checkout's copy whose node_modules Node 24 installed. */
  checkout: string;
}

function run(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const result = spawnSync(command, args, { ...options, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} in ${options.cwd} failed (exit ${result.status})`);
}

function installNode(cache: string): string {
  const folder = join(cache, 'node');
  // The `node` package installs the platform's build as node-<platform>-<arch> beside it.
  const nodeHome = join(
    folder,
    'node_modules',
    'node',
    'node_modules',
    `node-${process.platform}-${process.arch}`,
  );
  if (!existsSync(join(nodeHome, 'bin', 'node'))) {
    console.log(`installing Node ${PRODUCTION_NODE_MAJOR} from the npm registry into ${folder} ...`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{"private":true}\n');
    run('npm', ['install', '--no-audit', '--no-fund', `node@${PRODUCTION_NODE_MAJOR}`], {
      cwd: folder,
      env: process.env,
    });
    if (!existsSync(join(nodeHome, 'bin', 'node')))
      throw new Error(
        `npm installed node@${PRODUCTION_NODE_MAJOR}, but no Node binary is at ${nodeHome}/bin/node`,
      );
  }
  return nodeHome;
}

function environmentOf(nodeHome: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${join(nodeHome, 'bin')}${delimiter}${process.env.PATH ?? ''}`,
    // Native modules compile against Node 24's headers, not the ones of the Node that started npm.
    npm_config_nodedir: nodeHome,
  };
}

/** Copies the checkout's files (not its node_modules) over the runtime's copy, dropping what was removed. */
function copySources(root: string, checkout: string): void {
  for (const entry of readdirSync(checkout)) {
    if (entry !== 'node_modules') rmSync(join(checkout, entry), { recursive: true, force: true });
  }
  cpSync(root, checkout, {
    recursive: true,
    filter: (source) => {
      const path = relative(root, source);
      return !NOT_COPIED.has(path) && !path.split(sep).includes('node_modules');
    },
  });
}

/** Node 24 and the checkout's dependencies installed by it; reinstalled when the lockfile changes. */
function prepareRuntime(root: string): Runtime {
  const cache = process.env.BENCH_RUNTIME_DIR ?? join(homedir(), '.cache', 'paperspace-chatops-bench');
  const nodeHome = installNode(cache);
  const checkout = join(cache, 'checkout');
  mkdirSync(checkout, { recursive: true });
  const lockfile = readFileSync(join(root, 'package-lock.json'), 'utf8');
  const installedLock = join(cache, 'installed-package-lock.json');
  const installed = existsSync(installedLock) && readFileSync(installedLock, 'utf8') === lockfile;
  copySources(root, checkout);
  if (!installed) {
    console.log(
      `installing the dependencies with Node ${PRODUCTION_NODE_MAJOR} in ${checkout} (once per lockfile; ` +
        'compiling better-sqlite3 takes several minutes) ...',
    );
    rmSync(installedLock, { force: true });
    run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: checkout, env: environmentOf(nodeHome) });
    writeFileSync(installedLock, lockfile);
  }
  return { nodeHome, checkout };
}

/**
 * Runs `script` (a path relative to the checkout) with `args` on Node 24 from the runtime's copy of the
 * checkout at `root`, and returns its exit code. `resultsFile` is where it writes its results. Two runs
 * at once would share the cache's copy: one benchmark run at a time.
 */
export function runOnProductionNode(
  root: string,
  script: string,
  args: readonly string[],
  resultsFile: string,
): number {
  const runtime = prepareRuntime(root);
  const result = spawnSync(join(runtime.nodeHome, 'bin', 'node'), ['--import', 'tsx', script, ...args], {
    cwd: runtime.checkout,
    env: { ...environmentOf(runtime.nodeHome), BENCH_RESULTS_FILE: resultsFile },
    stdio: 'inherit',
  });
  return result.status ?? 1;
}
