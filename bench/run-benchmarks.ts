// The benchmarks, run by bench/run.ts on the production runtime: every one, or the ones named
// (completion|polling|ack|memory|cost-guard|db-size|reports); BENCH_QUICK=1 runs small sizes to check that they
// work (not figures to report). Each prints its table (figures, reference, ratio, PASS/FAIL) and
// bench/RESULTS.md is updated with the date and the machine. The exit code is 1 when a goal was missed.
import { fileURLToPath } from 'node:url';
import { runAckLatency } from './ack/ack-latency.js';
import { runCompletionLatency } from './completion/completion-latency.js';
import { runCostGuardCalls } from './cost-guard/cost-guard-calls.js';
import { runDbSize } from './db-size/db-size.js';
import { runMemory } from './memory/memory.js';
import { runPollingCost } from './polling/polling-cost.js';
import {
  type BenchmarkResult,
  describeEnvironment,
  formatTable,
  passed,
  updateResultsFile,
} from './report.js';
import { runReports } from './reports/reports.js';

const BENCHMARKS: Record<string, () => Promise<BenchmarkResult>> = {
  completion: runCompletionLatency,
  polling: runPollingCost,
  ack: runAckLatency,
  memory: runMemory,
  'cost-guard': runCostGuardCalls,
  'db-size': runDbSize,
  reports: runReports,
};
const ORDER = Object.keys(BENCHMARKS);
// Run from a copy of the checkout (bench/run.ts), the results still belong to the checkout it came from.
const RESULTS_FILE =
  process.env.BENCH_RESULTS_FILE ?? fileURLToPath(new URL('./RESULTS.md', import.meta.url));

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}. Usage: npm run bench [-- ${ORDER.join('|')} ...]`);
  process.exit(2);
}
const names = asked.length > 0 ? ORDER.filter((name) => asked.includes(name)) : ORDER;

/** A benchmark that threw is reported as a failed row, so the others' figures of the run are still kept. */
function crashed(name: string, error: unknown): BenchmarkResult {
  const message = error instanceof Error ? error.message : String(error);
  console.error(error);
  return {
    name,
    title: `${name}: the benchmark itself failed`,
    setup: 'The benchmark threw before it finished; nothing was measured.',
    rows: [
      {
        metric: 'benchmark run',
        measured: `threw: ${message}`,
        reference: '-',
        ratio: Number.NaN,
        goal: 'runs to the end',
        pass: false,
      },
    ],
    notes: [],
  };
}

const environment = describeEnvironment();
console.log(
  `${environment.date} · ${environment.cpu} · ${environment.cores} cores · ${environment.memory} · ` +
    `Node ${environment.node}\n`,
);
const results: BenchmarkResult[] = [];
for (const name of names) {
  const run = BENCHMARKS[name];
  if (run === undefined) continue;
  console.log(`running ${name} ...`);
  const result = await run().catch((error: unknown) => crashed(name, error));
  results.push(result);
  console.log(`${formatTable(result)}\n`);
}
if (process.env.BENCH_QUICK === '1') {
  // Small sizes check that the benchmarks work; their figures are not results.
  console.log(`quick mode: ${RESULTS_FILE} left as it was`);
} else {
  await updateResultsFile(RESULTS_FILE, results, environment, ORDER);
  console.log(`wrote ${RESULTS_FILE}`);
}
if (!results.every(passed)) process.exitCode = 1;
