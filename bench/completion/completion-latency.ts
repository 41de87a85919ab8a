// Completion detection as a person feels it: from the moment a machine reaches its target state to the
// moment the "gpu-1 is ready" reply reaches Slack. Real clock, the bot's real 5 s poll timer, a
// Paperspace emulator answering every call after 250 ms, and the production Slack pacing. Every person
// has their own key, their own channel and 10 machines; machine k of every person finishes in wave k,
// waves 1.1 s apart (so one channel never gets two replies within Slack's one-per-second limit, while
// a whole wave, up to 1,000 machines, finishes at the same moment). The reference is the goal's own
// bound: one poll interval (the wait for the next tick) + one API latency + 1 s.
import { realTimers } from '../../src/scheduler/scheduler.js';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { startEmulator } from '../../tools/emulator/index.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { BENCH_POLL_INTERVAL_MS, type BenchBot, startBenchBot } from '../support/bench-bot.js';
import { BENCH_TEAM_ID, benchAccounts, benchSeed, linkAccounts } from '../support/bench-world.js';
import { formatMs, percentile } from '../support/stats.js';

const QUICK = process.env.BENCH_QUICK === '1';
const SIZES = QUICK ? [5, 20] : [10, 100, 1000];
const WAVES = QUICK ? 2 : 10;
const WAVE_SPACING_MS = 1100;
const API_LATENCY_MS = 250;
/** Long enough to create a whole wave's watches before its machines get there. */
const TRANSITION_MS = QUICK ? 15_000 : 60_000;
const GOAL_MS = BENCH_POLL_INTERVAL_MS + API_LATENCY_MS + 1000;
/** How often the fake Slack's call log is read; arrival times are this precise. */
const SAMPLE_MS = 20;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function measure(people: number): Promise<{ latencies: number[]; expected: number }> {
  const accounts = benchAccounts(people);
  const emulator = await startEmulator({
    seed: benchSeed(accounts),
    transitionMs: TRANSITION_MS,
    latencyMs: API_LATENCY_MS,
  });
  const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
  let bench: BenchBot | undefined;
  try {
    bench = await startBenchBot({
      paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
      slackApiUrl: slack.apiUrl,
      timers: realTimers,
    });
    await linkAccounts(bench.vault, accounts);
    /** When each card's machine reaches serviceready, by card ts. */
    const reachedAt = new Map<string, number>();
    const started = Date.now();
    for (let wave = 0; wave < WAVES; wave += 1) {
      const waveStart = started + wave * WAVE_SPACING_MS;
      if (Date.now() < waveStart) await delay(waveStart - Date.now());
      const added = Date.now();
      const watches = accounts.map(async ({ slackUser, account }, person) => {
        const [machineId] = emulator.state.addMachines(1, {
          owner: account.userId,
          state: 'starting',
          namePrefix: `${account.userId}-w${wave}`,
        });
        if (machineId === undefined) throw new Error('the emulator added no machine');
        const cardTs = `1700000000.${String(wave * people + person + 1).padStart(6, '0')}`;
        reachedAt.set(cardTs, added + TRANSITION_MS);
        await bench?.bot.watcher.watch({
          user: slackUser,
          machineId,
          machineName: machineId,
          targetState: 'serviceready',
          channel: `C0BENCH${person}`,
          messageTs: cardTs,
          initialState: 'starting',
        });
      });
      await Promise.all(watches);
      if (Date.now() - added > TRANSITION_MS)
        throw new Error('creating a wave of watches outlasted the transition');
    }

    const arrivedAt = new Map<string, number>();
    const deadline = started + WAVES * WAVE_SPACING_MS + TRANSITION_MS + 120_000;
    let seen = 0;
    while (arrivedAt.size < reachedAt.size && Date.now() < deadline) {
      const posts = slack.calls('chat.postMessage');
      const at = Date.now();
      for (const call of posts.slice(seen)) {
        const thread = call.args.thread_ts;
        if (typeof thread === 'string' && reachedAt.has(thread) && !arrivedAt.has(thread))
          arrivedAt.set(thread, at);
      }
      seen = posts.length;
      await delay(SAMPLE_MS);
    }
    const latencies = [...arrivedAt].map(([card, at]) => at - (reachedAt.get(card) ?? at));
    return { latencies, expected: reachedAt.size };
  } finally {
    await bench?.close();
    await slack.close();
    await emulator.close();
  }
}

export async function runCompletionLatency(): Promise<BenchmarkResult> {
  const rows: ResultRow[] = [];
  for (const people of SIZES) {
    const { latencies, expected } = await measure(people);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const all = latencies.length === expected;
    rows.push({
      metric: `machine there -> reply in Slack, ${people.toLocaleString('en-US')} people (${expected.toLocaleString('en-US')} watches)`,
      measured: `p50 ${formatMs(p50)}, p99 ${formatMs(p99)}${all ? '' : `; only ${latencies.length} of ${expected} replies arrived`}`,
      reference: `${formatMs(GOAL_MS)} (poll interval + API latency + 1 s)`,
      ratio: p99 / GOAL_MS,
      goal: `p99 <= ${formatMs(GOAL_MS)}`,
      pass: all && p99 <= GOAL_MS,
    });
  }
  return {
    name: 'completion',
    title: 'Completion detection on a real clock',
    setup:
      `${SIZES.join(', ')} people, ${WAVES} watches each, machines finishing in ${WAVES} waves ${WAVE_SPACING_MS} ms apart; ` +
      `real clock, the bot's real ${BENCH_POLL_INTERVAL_MS / 1000} s poll timer, ${API_LATENCY_MS} ms emulator latency, ` +
      `production Slack pacing, each person in their own channel. Latency = reply seen at the fake Slack ` +
      `(sampled every ${SAMPLE_MS} ms) minus the moment the emulator moved the machine to serviceready.` +
      (QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''),
    rows,
    notes: [
      'A machine that gets there just after a tick waits for the next one: the p50 floor is about half a poll interval.',
    ],
  };
}
