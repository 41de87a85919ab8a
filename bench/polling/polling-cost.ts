// Polling cost: 1,000 watches of 50 people over 1,000 machines (20 each, all starting), polled by the
// real scheduler for 10 ticks on a fake clock, against the reference of one show per watch per tick.
// Both poll the same emulator in the same run; its request log counts the Paperspace calls of each tick.
// One more tick, after the machines finished starting, shows what ending every watch at once costs.

import { createPaperspaceClientFactory } from '../../src/vault/paperspace-clients.js';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { createFakeClock, type RequestLogEntry, startEmulator } from '../../tools/emulator/index.js';
import type { BenchmarkResult } from '../report.js';
import { type BenchBot, startBenchBot } from '../support/bench-bot.js';
import {
  addStartingMachines,
  BENCH_TEAM_ID,
  benchAccounts,
  benchSeed,
  linkAccounts,
} from '../support/bench-world.js';
import { requestsDuring } from '../support/request-count.js';
import { formatCount, mean } from '../support/stats.js';
import { createPerWatchPoller, type PolledWatch } from './per-watch-poller.js';

const PEOPLE = 50;
const MACHINES_PER_PERSON = 20;
const TICKS = 10;
/** The bench bot's poll interval; the fake clock moves this much before each tick. */
const POLL_INTERVAL_MS = 5000;
/** Long enough that no machine finishes starting during the measured ticks. */
const TRANSITION_MS = 10 * 60_000;
const GOAL_CALLS_PER_TICK = 50;

const LIST_PATH = '/machines/getMachines';
const SHOW_PATH = '/machines/getMachinePublic';

interface TickCount {
  calls: number;
  lists: number;
  shows: number;
  failed: number;
}

function countOf(entries: readonly RequestLogEntry[]): TickCount {
  return {
    calls: entries.length,
    lists: entries.filter((entry) => entry.path === LIST_PATH).length,
    shows: entries.filter((entry) => entry.path === SHOW_PATH).length,
    failed: entries.filter((entry) => entry.status >= 400).length,
  };
}

export async function runPollingCost(): Promise<BenchmarkResult> {
  const clock = createFakeClock();
  const accounts = benchAccounts(PEOPLE);
  const emulator = await startEmulator({
    seed: benchSeed(accounts),
    now: clock.now,
    transitionMs: TRANSITION_MS,
  });
  const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
  let bench: BenchBot | undefined;
  try {
    const machineIds = addStartingMachines(emulator, accounts, MACHINES_PER_PERSON);
    bench = await startBenchBot({
      paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
      slackApiUrl: slack.apiUrl,
      now: clock.now,
    });
    const { scheduler, watcher } = bench.bot;
    await linkAccounts(bench.vault, accounts);

    // Through the watcher the listeners use, as `/ps start` on a card makes them.
    const watched: PolledWatch[] = [];
    const watchIds: string[] = [];
    for (const [person, { slackUser, account }] of accounts.entries()) {
      for (const [index, machineId] of (machineIds[person] ?? []).entries()) {
        const watch = await watcher.watch({
          user: slackUser,
          machineId,
          machineName: `${account.userId}-${index + 1}`,
          targetState: 'serviceready',
          channel: 'C0BENCH',
          messageTs: `1700000000.${String(watchIds.length + 1).padStart(6, '0')}`,
          initialState: 'starting',
        });
        watchIds.push(watch.id);
        watched.push({ user: slackUser, machineId });
      }
    }
    const reference = createPerWatchPoller({
      clients: createPaperspaceClientFactory({
        vault: bench.vault,
        baseUrl: emulator.url,
        graphqlUrl: emulator.graphqlUrl,
        now: clock.now,
      }),
      watches: watched,
    });

    const bot: TickCount[] = [];
    const perWatch: TickCount[] = [];
    for (let tick = 0; tick < TICKS; tick += 1) {
      clock.advance(POLL_INTERVAL_MS);
      bot.push(countOf(await requestsDuring(emulator, () => scheduler.tick())));
      perWatch.push(countOf(await requestsDuring(emulator, () => reference.tick())));
    }
    clock.advance(TRANSITION_MS);
    const botEnding = countOf(await requestsDuring(emulator, () => scheduler.tick()));
    const perWatchEnding = countOf(await requestsDuring(emulator, () => reference.tick()));
    const finished = await Promise.all(watchIds.map((id) => bench?.store.watches.get(id)));
    const done = finished.filter((watch) => watch?.status === 'done').length;

    return report({ bot, perWatch, botEnding, perWatchEnding, done, watches: watchIds.length });
  } finally {
    await bench?.close();
    await slack.close();
    await emulator.close();
  }
}

function report(figures: {
  bot: TickCount[];
  perWatch: TickCount[];
  botEnding: TickCount;
  perWatchEnding: TickCount;
  done: number;
  watches: number;
}): BenchmarkResult {
  const { bot, perWatch, botEnding, perWatchEnding } = figures;
  const botMean = mean(bot.map((tick) => tick.calls));
  const perWatchMean = mean(perWatch.map((tick) => tick.calls));
  const botMax = Math.max(...bot.map((tick) => tick.calls));
  const botTotal = bot.reduce((sum, tick) => sum + tick.calls, 0);
  const perWatchTotal = perWatch.reduce((sum, tick) => sum + tick.calls, 0);
  const failed = [...bot, ...perWatch, botEnding, perWatchEnding].reduce((sum, tick) => sum + tick.failed, 0);
  const lists = bot.reduce((sum, tick) => sum + tick.lists, 0);
  const shows = bot.reduce((sum, tick) => sum + tick.shows, 0);
  return {
    name: 'polling',
    title: 'Polling cost of 1,000 watches',
    setup:
      `${figures.watches.toLocaleString('en-US')} watches (made through the scheduler's watch API) of ` +
      `${PEOPLE} people, each with their own key and ${MACHINES_PER_PERSON} starting machines ` +
      `(${(PEOPLE * MACHINES_PER_PERSON).toLocaleString('en-US')} in all); the real scheduler's tick ` +
      `${TICKS} times on a fake clock (${POLL_INTERVAL_MS / 1000} s apart). Reference = a per-watch ` +
      `poller (one getMachinePublic per watch per tick, as the existing clients do) against the same ` +
      `emulator in the same run. Calls counted from the emulator's request log.`,
    rows: [
      {
        metric: 'Paperspace calls per tick (mean)',
        measured: formatCount(botMean),
        reference: formatCount(perWatchMean),
        ratio: botMean / perWatchMean,
        goal: `<= ${GOAL_CALLS_PER_TICK}`,
        pass: botMean <= GOAL_CALLS_PER_TICK,
      },
      {
        metric: 'Paperspace calls, busiest tick',
        measured: formatCount(botMax),
        reference: formatCount(Math.max(...perWatch.map((tick) => tick.calls))),
        ratio: botMax / Math.max(...perWatch.map((tick) => tick.calls)),
        goal: `<= ${GOAL_CALLS_PER_TICK}`,
        pass: botMax <= GOAL_CALLS_PER_TICK,
      },
      {
        metric: `Paperspace calls, all ${TICKS} ticks`,
        measured: `${formatCount(botTotal)} (${formatCount(lists)} lists, ${formatCount(shows)} shows)`,
        reference: formatCount(perWatchTotal),
        ratio: botTotal / perWatchTotal,
        goal: '',
      },
      {
        metric: 'tick where every watch ends (informational)',
        measured: `${formatCount(botEnding.calls)} (${formatCount(botEnding.lists)} lists, ${formatCount(botEnding.shows)} shows)`,
        reference: formatCount(perWatchEnding.calls),
        ratio: botEnding.calls / perWatchEnding.calls,
        goal: '',
      },
      {
        metric: 'watches reported done after that tick',
        measured: formatCount(figures.done),
        reference: formatCount(figures.watches),
        goal: 'all',
        pass: figures.done === figures.watches,
      },
      {
        metric: 'failed Paperspace calls',
        measured: formatCount(failed),
        reference: '0',
        goal: '0',
        pass: failed === 0,
      },
    ],
    notes: [
      'While watches wait, a tick costs one getMachines per person (their 20 machines fit one page); ' +
        'a machine is shown only when its watch may end, for the event log that tells done from failed.',
      'The ending tick is the worst case: all 1,000 machines reach the target at once, so each watch costs ' +
        'its one show in the same tick; the per-watch poller pays that every tick.',
    ],
  };
}
