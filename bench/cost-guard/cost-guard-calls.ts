// Paperspace calls the cost guard costs: 1,000 running machines of 50 people, counted from the
// emulator's request log. The reference is what the watch poller alone made before the cost guard
// existed: one getMachines per person with watches per tick, and nothing for people without watches.
// Three situations are counted on one bot:
// - every person has a watch: the guard reads the list the poller makes anyway, so the goal is that
//   calls per tick stay at one per person (1.0x);
// - nobody has a watch: the guard lists each person once per check interval (CHECK_EVERY_MS), so the
//   goal is one list per person per interval, spread as calls per tick;
// - the tick at which every machine passes the threshold: one DM each, and the calls that costs.
// Machines stay mid-start (long transitions), so the guard learns their start without reading events.
// Every team policy is on for every person's team (a 12 h run limit, off-hours from 20:00, one machine
// exempted): their checks read the same list, and ask for a list of their
// own only when a warning or a stop is due, which none is within the counted hours.

import { costAlertBlockId } from '../../src/features/cost-alerts/blocks/cost-alert.js';
import { CHECK_EVERY_MS } from '../../src/features/cost-alerts/cost-guard.js';
import { DEFAULT_THRESHOLD_MS } from '../../src/features/cost-alerts/thresholds.js';
import type { Store } from '../../src/store/store.js';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { createFakeClock, startEmulator } from '../../tools/emulator/index.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { startBenchBot } from '../support/bench-bot.js';
import {
  addStartingMachines,
  BENCH_TEAM_ID,
  type BenchAccount,
  benchAccounts,
  benchSeed,
  linkAccounts,
} from '../support/bench-world.js';
import { requestsDuring } from '../support/request-count.js';
import { formatCount } from '../support/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const PEOPLE = QUICK ? 10 : 50;
const MACHINES_EACH = QUICK ? 5 : 20;
const POLL_INTERVAL_MS = 5000;
const TICKS_PER_CHECK = CHECK_EVERY_MS / POLL_INTERVAL_MS;
const TRANSITION_MS = 7 * 24 * 60 * 60_000;
const LIST_PATH = '/machines/getMachines';

/** A 12 h run limit, off-hours from 20:00 UTC every day and one exempted machine, per team. */
async function turnEveryPolicyOn(
  store: Store,
  accounts: readonly BenchAccount[],
  machineIds: readonly (readonly string[])[],
  now: number,
): Promise<void> {
  for (const [person, { slackUser, account }] of accounts.entries()) {
    const team = { teamId: slackUser.teamId, paperspaceTeamId: account.teamId ?? account.userId };
    const exempted = machineIds[person]?.[0] ?? '';
    const by = { setBy: slackUser.userId, at: now };
    await store.policies.setRule(team, 'max_run', { ms: 12 * 3_600_000 }, by);
    await store.policies.setRule(
      team,
      'off_hours',
      { start: '20:00', end: '07:00', days: 'daily', timezone: 'UTC' },
      by,
    );
    const exemption = {
      machineId: exempted,
      machineName: exempted,
      untilAt: now + 86_400_000,
      setBy: slackUser.userId,
    };
    await store.policies.exempt(team, exemption, now);
  }
}

interface Counted {
  ticks: number;
  calls: number;
  lists: number;
}

export async function runCostGuardCalls(): Promise<BenchmarkResult> {
  const accounts = benchAccounts(PEOPLE);
  const clock = createFakeClock();
  const emulator = await startEmulator({
    seed: benchSeed(accounts),
    transitionMs: TRANSITION_MS,
    now: clock.now,
  });
  const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
  const bench = await startBenchBot({
    paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
    slackApiUrl: slack.apiUrl,
    now: clock.now,
  });
  try {
    await linkAccounts(bench.vault, accounts);
    const machineIds = addStartingMachines(emulator, accounts, MACHINES_EACH);
    await turnEveryPolicyOn(bench.store, accounts, machineIds, clock.now());
    const tick = () => bench.bot.scheduler.tick();
    const count = async (ticks: number): Promise<Counted> => {
      const counted: Counted = { ticks, calls: 0, lists: 0 };
      for (let index = 0; index < ticks; index += 1) {
        clock.advance(POLL_INTERVAL_MS);
        const entries = await requestsDuring(emulator, tick);
        counted.calls += entries.length;
        counted.lists += entries.filter((entry) => entry.path === LIST_PATH).length;
      }
      return counted;
    };

    // The first check of everyone: each machine's run begins.
    await count(1);
    const withoutWatches = await count(TICKS_PER_CHECK);

    let card = 0;
    for (const [person, { slackUser }] of accounts.entries()) {
      const [machineId] = machineIds[person] ?? [];
      if (machineId === undefined) continue;
      card += 1;
      await bench.bot.watcher.watch({
        user: slackUser,
        machineId,
        machineName: machineId,
        targetState: 'serviceready',
        channel: `C0BENCH${person}`,
        messageTs: `1700000000.${String(card).padStart(6, '0')}`,
        initialState: 'starting',
      });
    }
    const withWatches = await count(TICKS_PER_CHECK);

    const machineIdsAlerted = new Set(machineIds.flat().map(costAlertBlockId));
    // By then the watches have timed out (their replies are not alerts): everyone is without watches again.
    clock.advance(DEFAULT_THRESHOLD_MS);
    // A person's alerts come as one message with a row per machine: the rows are what is counted.
    const alertCount = () =>
      slack
        .calls('chat.postMessage')
        .flatMap((call) => (call.args.blocks ?? []) as { block_id?: string }[])
        .filter((block) => machineIdsAlerted.has(block.block_id ?? '')).length;
    const alertsBefore = alertCount();
    const alertTick = await count(1);
    const alerts = alertCount() - alertsBefore;
    const afterAlerts = await count(TICKS_PER_CHECK);

    const machines = PEOPLE * MACHINES_EACH;
    const perTick = (counted: Counted) => counted.calls / counted.ticks;
    const rows: ResultRow[] = [
      {
        metric: `calls per tick, every person with a watch (${formatCount(TICKS_PER_CHECK)} ticks)`,
        measured: `${perTick(withWatches).toFixed(2)} (${withWatches.lists} lists of ${withWatches.calls} calls)`,
        reference: `${PEOPLE} (1 list per person, the poller alone)`,
        ratio: perTick(withWatches) / PEOPLE,
        goal: '1.0x',
        pass: withWatches.calls === PEOPLE * withWatches.ticks,
      },
      {
        metric: `lists per person per ${CHECK_EVERY_MS / 60_000} minutes, nobody with a watch`,
        measured: `${(withoutWatches.lists / PEOPLE).toFixed(2)} (${withoutWatches.calls} calls in ${withoutWatches.ticks} ticks)`,
        reference: '1 (one check per interval); the poller alone made 0',
        ratio: withoutWatches.lists / PEOPLE,
        goal: '1.0x',
        pass: withoutWatches.calls === PEOPLE && withoutWatches.lists === PEOPLE,
      },
      {
        metric: `the tick ${DEFAULT_THRESHOLD_MS / 3_600_000}h later: alerts posted, calls`,
        measured: `${alerts} alerts, ${alertTick.calls} calls (${alertTick.lists} lists)`,
        reference: `${machines} alerts (one per machine); ${PEOPLE} lists + 1 rate lookup and 1 event read per alert`,
        goal: 'one alert per machine',
        pass: alerts === machines && alertTick.calls <= PEOPLE + 2 * machines,
      },
      {
        metric: `calls per person in the ${CHECK_EVERY_MS / 60_000} minutes after the alerts (machines still running)`,
        measured: `${(afterAlerts.calls / PEOPLE).toFixed(2)} (${afterAlerts.lists} lists of ${afterAlerts.calls} calls)`,
        reference: '1 (one list per check; no alert again)',
        ratio: afterAlerts.calls / PEOPLE,
        goal: '1.0x',
        pass: afterAlerts.calls === PEOPLE && afterAlerts.lists === PEOPLE,
      },
    ];
    return {
      name: 'cost-guard',
      title: 'Paperspace calls of the cost guard (forgotten-machine alerts)',
      setup:
        `${formatCount(machines)} running machines of ${PEOPLE} people (${MACHINES_EACH} each), one replica on ` +
        `SQLite, the legacy API, ticks every ${POLL_INTERVAL_MS / 1000}s on a fake clock; calls counted from the ` +
        `emulator's request log.${QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''}`,
      rows,
      notes: [
        'People without watches are listed once per check interval (5 minutes), not every tick; people with watches cost nothing more than their watches do.',
        'Each alert reads the machine’s hourly rate: one utilization call on the legacy API, none on v1 (its list carries the rate).',
        'A machine first seen running (not starting) costs one show call, once per run, to read when it started.',
        'An alert about a run followed from an earlier check first reads the machine’s events (one show call), so a stop and a start between two checks begins a new run instead of being alerted as one.',
        'Every team policy is on (12 h run limit, off-hours from 20:00 UTC, an exemption): the policies read the same list and add no call until a warning or stop is due.',
      ],
    };
  } finally {
    await bench.close();
    await slack.close();
    await emulator.close();
  }
}
