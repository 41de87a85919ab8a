// Child process of the completion benchmark: one replica of the bot (startBot on the shared PostgreSQL
// schema, the real 5 s poll timer), each on its own event loop as production runs each replica in a
// container of its own. Started by completion-latency.ts, never on its own.
import { realTimers } from '../../src/scheduler/scheduler.js';
import { startBenchBot } from '../support/bench-bot.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import type { CPU_QUERY, CpuUsed, ReplicaConfig, ReplicaReady } from './completion-protocol.js';

const channel = parentChannel();
const config = await channel.next<ReplicaConfig>();
const bench = await startBenchBot({
  paperspace: config.paperspace,
  slackApiUrl: config.slackApiUrl,
  databaseUrl: config.databaseUrl,
  replicaId: config.replicaId,
  vaultKey: Buffer.from(config.vaultKey, 'base64'),
  timers: realTimers,
});
channel.send({ pid: process.pid } satisfies ReplicaReady);
for (;;) {
  const message = await channel.next<typeof CPU_QUERY | typeof STOP>();
  if (message.type === 'stop') break;
  channel.send(process.cpuUsage() satisfies CpuUsed);
}
// A replica whose stop outlasts this is cut off (and says so), so one slow shutdown cannot hold the
// benchmark: stopping waits for the posts still queued per channel.
const STOP_TIMEOUT_MS = 30_000;
const stopped = await Promise.race([
  bench.close().then(() => true),
  new Promise<false>((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS, false).unref()),
]);
if (!stopped)
  console.error(`replica ${config.replicaId} did not stop within ${STOP_TIMEOUT_MS / 1000} s; cut off`);
channel.disconnect();
process.exit(0);
