// Memory with 10,000 active watches: the bot in a child process (so its RSS is clean) holds 10,000
// watches of 50 people over 10,000 starting machines and ticks a few times; its RSS after garbage
// collection is compared with the same process's RSS before the watches were made.

import { startFakeSlack } from '../../test/support/fake-slack.js';
import { startEmulator } from '../../tools/emulator/index.js';
import type { BenchmarkResult } from '../report.js';
import { addStartingMachines, BENCH_TEAM_ID, benchAccounts, benchSeed } from '../support/bench-world.js';
import { startChild } from '../support/child-process.js';
import { formatCount, formatMb, formatMs, mean } from '../support/stats.js';
import type { WatchHolderConfig, WatchHolderResult } from './watch-holder-process.js';

// 50 watches each: the most one person may have (MAX_ACTIVE_WATCHES_PER_PERSON), so the bot accepts all.
const PEOPLE = 200;
const WATCHES = 10_000;
const TICKS = 3;
/** No machine finishes starting while the benchmark runs (the emulator runs on the real clock). */
const TRANSITION_MS = 24 * 60 * 60_000;
const GOAL_RSS_BYTES = 200 * 1024 * 1024;

export async function runMemory(): Promise<BenchmarkResult> {
  const accounts = benchAccounts(PEOPLE);
  const emulator = await startEmulator({ seed: benchSeed(accounts), transitionMs: TRANSITION_MS });
  const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
  const child = startChild(new URL('./watch-holder-process.ts', import.meta.url), { exposeGc: true });
  try {
    const machineIds = addStartingMachines(emulator, accounts, WATCHES / PEOPLE);
    child.send({
      paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
      slackApiUrl: slack.apiUrl,
      accounts,
      machineIds,
      ticks: TICKS,
    } satisfies WatchHolderConfig);
    const result = await child.next<WatchHolderResult>();
    return report(result);
  } finally {
    await child.stop();
    await slack.close();
    await emulator.close();
  }
}

function report(result: WatchHolderResult): BenchmarkResult {
  const { before, after } = result;
  return {
    name: 'memory',
    title: 'Memory with 10,000 active watches',
    setup:
      `The bot (startBot: SQLite, vault, scheduler; ${PEOPLE} linked people) in a child process run with ` +
      `\`node --expose-gc --import tsx\`. ${WATCHES.toLocaleString('en-US')} watches made through the ` +
      `scheduler's watch API (one per starting machine, ${WATCHES / PEOPLE} per person), then ${TICKS} ticks ` +
      `against the emulator; RSS read after garbage collection. Reference = the same process after ` +
      `start-up, before the watches.`,
    rows: [
      {
        metric: 'RSS after GC',
        measured: formatMb(after.rss),
        reference: formatMb(before.rss),
        ratio: after.rss / before.rss,
        goal: `< ${formatMb(GOAL_RSS_BYTES)}`,
        pass: after.rss < GOAL_RSS_BYTES,
      },
      {
        metric: 'V8 heap used after GC',
        measured: formatMb(after.heapUsed),
        reference: formatMb(before.heapUsed),
        ratio: after.heapUsed / before.heapUsed,
        goal: '',
      },
      {
        metric: 'peak RSS (whole run)',
        measured: formatMb(result.peakRss),
        reference: '',
        goal: '',
      },
      {
        metric: 'active watches',
        measured: formatCount(result.activeWatches),
        reference: '',
        goal: formatCount(WATCHES),
        pass: result.activeWatches === WATCHES,
      },
      {
        metric: 'watches a tick polls (leased to this replica)',
        measured: formatCount(result.claimedWatches),
        reference: formatCount(result.activeWatches),
        ratio: result.claimedWatches / result.activeWatches,
        // No cap since issue #16: a replica alone polls every active watch.
        goal: 'all',
        pass: result.claimedWatches === result.activeWatches,
      },
      {
        metric: 'tick duration (mean)',
        measured: formatMs(mean(result.tickMs)),
        reference: '',
        goal: '',
      },
      {
        metric: `making ${WATCHES.toLocaleString('en-US')} watches`,
        measured: formatMs(result.createMs),
        reference: '',
        goal: '',
      },
    ],
    notes: [
      'Watches live in the database: a tick loads the ones it polls, and nothing of them stays in memory ' +
        'between ticks, so the RSS after GC is what the process keeps; the peak includes a tick in flight.',
    ],
  };
}
