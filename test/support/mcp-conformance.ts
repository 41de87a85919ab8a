// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json), run as
// its CLI against a server URL, one scenario at a time, with its results read from the checks.json it
// writes rather than from its coloured summary. The suite needs Node 22 or later (it calls
// fs.globSync): below that its tests are skipped and say why, unless MCP_CONFORMANCE_REQUIRED is set,
// as .ci/node24 sets it, where a skip would let CI pass without having run the suite.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MINIMUM_NODE_MAJOR = 22;
const nodeMajor = Number(process.versions.node.split('.')[0]);
const required = !['', '0', 'false'].includes((process.env.MCP_CONFORMANCE_REQUIRED ?? '').toLowerCase());

/** Why the conformance tests do not run here, or undefined when they run (or, when required, must fail). */
export const mcpConformanceSkipReason =
  nodeMajor < MINIMUM_NODE_MAJOR && !required
    ? `the MCP conformance suite needs Node ${MINIMUM_NODE_MAJOR} or later and this is Node ${process.versions.node}; ` +
      'CI runs it under Node 24 (.ci/node24), or run .ci/node24 yourself'
    : undefined;

/** Throws when the suite cannot run on this Node although it is required to. */
export function requireConformanceNode(): void {
  if (nodeMajor < MINIMUM_NODE_MAJOR)
    throw new Error(
      `MCP_CONFORMANCE_REQUIRED is set but this is Node ${process.versions.node}; ` +
        `the MCP conformance suite needs Node ${MINIMUM_NODE_MAJOR} or later.`,
    );
}

/** One check of a scenario, as the suite records it. */
interface ConformanceCheck {
  id: string;
  name: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

export interface ConformanceRun {
  scenario: string;
  exitCode: number | null;
  checks: ConformanceCheck[];
  /** The CLI's stdout and stderr, for a failure's message. */
  output: string;
}

// The package has no exports map and its bin is this file. Resolved through `require.resolve`, which knip
// reads as a use of the devDependency.
const require = createRequire(import.meta.url);
const cli = require.resolve('@modelcontextprotocol/conformance/dist/index.js');

/** Runs one server scenario against `url` with the Node running the tests. */
export async function runServerScenario(url: string, scenario: string): Promise<ConformanceRun> {
  const outputDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'));
  try {
    const child = spawn(
      process.execPath,
      [cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', outputDir],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    return { scenario, exitCode, checks: await readChecks(outputDir), output };
  } finally {
    await rm(outputDir, { recursive: true, force: true });
  }
}

/** Every checks.json the CLI wrote (one folder per scenario run, named with the time). */
async function readChecks(outputDir: string): Promise<ConformanceCheck[]> {
  const files = (await readdir(outputDir, { recursive: true })).filter(
    (file) => file === 'checks.json' || file.endsWith('/checks.json'),
  );
  const checks: ConformanceCheck[] = [];
  for (const file of files) {
    checks.push(...(JSON.parse(await readFile(join(outputDir, file), 'utf8')) as ConformanceCheck[]));
  }
  return checks;
}

/** The checks that did not pass, one line each, or an empty list. */
export function failedChecks(run: ConformanceRun): string[] {
  return run.checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? check.name}`);
}
