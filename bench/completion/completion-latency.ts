// Completion detection as a person feels it: from the moment a machine reaches its target state to the
// moment the "gpu-1 is ready" reply reaches Slack. Real clock, the bot's real 5 s poll timer, a
// Paperspace emulator answering every call after 250 ms, and the production Slack pacing. Every person
// has their own key, their own channel and 10 machines; machine k of every person finishes in wave k,
// waves 1.1 s apart (so one channel never gets two replies within Slack's one-per-second limit, while
// a whole wave, up to 1,000 machines, finishes at the same moment). The reference is the goal's own
// bound: one poll interval (the wait for the next tick) + one API latency + 1 s.
// The emulator and the fake Slack run in a process of their own (completion-world-process.ts), as
// Paperspace and Slack do not share the bot's CPU in production; the bot runs here, alone on its loop.
import { realTimers } from '../../src/scheduler/scheduler.js';
import type { BenchmarkResult, ResultRow } from '../report.js';
import { BENCH_POLL_INTERVAL_MS, type BenchBot, startBenchBot } from '../support/bench-bot.js';
import { benchAccounts, linkAccounts } from '../support/bench-world.js';
import { startChild } from '../support/child-process.js';
import { formatMs, percentile } from '../support/stats.js';
import type {
  AddWave,
  AwaitReplies,
  CompletionWorldConfig,
  CompletionWorldReady,
  RepliesArrived,
  WaveAdded,
} from './completion-protocol.js';

const QUICK = process.env.BENCH_QUICK === '1';
const SIZES = QUICK ? [5, 20] : [10, 100, 1000];
const WAVES = QUICK ? 2 : 10;
const WAVE_SPACING_MS = 1100;
const API_LATENCY_MS = 250;
/** Long enough to create a whole wave's watches before its machines get there. */
const TRANSITION_MS = QUICK ? 15_000 : 60_000;
const GOAL_MS = BENCH_POLL_INTERVAL_MS + API_LATENCY_MS + 1000;
/** How long after the last wave's machines get there the replies are waited for. */
const REPLY_TIMEOUT_MS = TRANSITION_MS + 120_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function measure(people: number): Promise<{ latencies: number[]; expected: number }> {
  const accounts = benchAccounts(people);
  const world = startChild(new URL('./completion-world-process.ts', import.meta.url));
  let bench: BenchBot | undefined;
  try {
    world.send({
      people,
      transitionMs: TRANSITION_MS,
      latencyMs: API_LATENCY_MS,
    } satisfies CompletionWorldConfig);
    const ready = await world.next<CompletionWorldReady>();
    bench = await startBenchBot({
      paperspace: ready.paperspace,
      slackApiUrl: ready.slackApiUrl,
      timers: realTimers,
    });
    await linkAccounts(bench.vault, accounts);
    /** When each card's machine reaches serviceready, by card ts. */
    const reachedAt = new Map<string, number>();
    const started = Date.now();
    for (let wave = 0; wave < WAVES; wave += 1) {
      const waveStart = started + wave * WAVE_SPACING_MS;
      if (Date.now() < waveStart) await delay(waveStart - Date.now());
      world.send({ type: 'wave', wave } satisfies AddWave);
      const added = await world.next<WaveAdded>();
      const watcher = bench.bot.watcher;
      const watches = accounts.map(async ({ slackUser }, person) => {
        const machineId = added.machineIds[person];
        if (machineId === undefined) throw new Error('the world added no machine for a person');
        const cardTs = `1700000000.${String(wave * people + person + 1).padStart(6, '0')}`;
        reachedAt.set(cardTs, added.reachedAt);
        await watcher.watch({
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
      if (Date.now() > added.reachedAt)
        throw new Error('creating a wave of watches outlasted the transition');
    }

    world.send({
      type: 'replies',
      cards: [...reachedAt.keys()],
      timeoutMs: REPLY_TIMEOUT_MS,
    } satisfies AwaitReplies);
    const { arrivedAt } = await world.next<RepliesArrived>();
    const latencies = Object.entries(arrivedAt).map(([card, at]) => at - (reachedAt.get(card) ?? at));
    return { latencies, expected: reachedAt.size };
  } finally {
    await bench?.close();
    await world.stop();
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
      `production Slack pacing, each person in their own channel; the emulator and the fake Slack in a process apart from the bot. Latency = reply seen at the fake Slack ` +
      `(sampled every 20 ms) minus the moment the emulator moved the machine to serviceready.` +
      (QUICK ? ' QUICK MODE (BENCH_QUICK=1): small sizes.' : ''),
    rows,
    notes: [
      'A machine that gets there just after a tick waits for the next one: the p50 floor is about half a poll interval.',
    ],
  };
}
