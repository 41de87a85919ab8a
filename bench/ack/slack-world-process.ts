// Child process of the ack benchmark: everything the bot talks to, the Paperspace emulator (demo seed,
// with latency) and the fake Slack Web API with its response_urls, in a process apart from the one
// that sends the load and times the acks, so serving the bot's own calls never delays that timing.
// Started by ack-latency.ts, never on its own.
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { startEmulator } from '../../tools/emulator/index.js';
import { BENCH_TEAM_ID } from '../support/bench-world.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import type { AwaitReplies, RepliesArrived, SlackWorldConfig, SlackWorldReady } from './ack-protocol.js';

const POLL_MS = 5;
const wallClock = () => performance.timeOrigin + performance.now();

const channel = parentChannel();
const config = await channel.next<SlackWorldConfig>();
const emulator = await startEmulator({ latencyMs: config.latencyMs });
// Stamped as each reply arrives, not when the benchmark asks: a reply posted while the burst is still
// being acked counts from when it got here.
let arrivedAt: Record<string, number> = {};
const slack = await startFakeSlack({
  teamId: BENCH_TEAM_ID,
  onResponseUrlPost: (id) => {
    arrivedAt[id] ??= wallClock();
  },
});
/** The last request in the emulator's log when counting began (it keeps its 10,000 most recent). */
let countedFrom = emulator.state.requests().at(-1);
function paperspaceCallsSince(): number {
  const log = emulator.state.requests();
  const index = countedFrom === undefined ? -1 : log.lastIndexOf(countedFrom);
  if (countedFrom !== undefined && index === -1) throw new Error('more requests than the emulator log keeps');
  countedFrom = log.at(-1);
  return log.length - (index + 1);
}
channel.send({
  paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
  slackApiUrl: slack.apiUrl,
  responseUrlPrefix: slack.responseUrl(''),
  botUserId: slack.botUserId,
} satisfies SlackWorldReady);

for (;;) {
  const message = await channel.next<AwaitReplies | typeof STOP>();
  if (message.type === 'stop') break;
  const deadline = wallClock() + message.timeoutMs;
  while (message.ids.some((id) => arrivedAt[id] === undefined) && wallClock() < deadline)
    await delay(POLL_MS);
  const arrived = Object.fromEntries(
    message.ids.flatMap((id) => {
      const at = arrivedAt[id];
      return at === undefined ? [] : [[id, at]];
    }),
  );
  slack.reset();
  arrivedAt = {};
  channel.send({ arrivedAt: arrived, paperspaceCalls: paperspaceCallsSince() } satisfies RepliesArrived);
}
await slack.close();
await emulator.close();
channel.disconnect();
