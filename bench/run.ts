// `npm run bench` runs every benchmark; `npm run bench -- completion|polling|ack|memory|cost-guard|db-size`
// runs the ones named (bench/run-benchmarks.ts). They run on the production runtime, Node 24: on another
// Node, this starts them again on Node 24 (support/production-runtime.ts says how and why).
import { fileURLToPath } from 'node:url';
import { runOnProductionNode, runsOnProductionNode } from './support/production-runtime.js';

if (runsOnProductionNode()) {
  await import('./run-benchmarks.js');
} else {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const resultsFile = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
  process.exitCode = runOnProductionNode(root, 'bench/run-benchmarks.ts', process.argv.slice(2), resultsFile);
}
