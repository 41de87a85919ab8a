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
const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
channel.send({
  paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
  slackApiUrl: slack.apiUrl,
  responseUrlPrefix: slack.responseUrl(''),
  botUserId: slack.botUserId,
} satisfies SlackWorldReady);

for (;;) {
  const message = await channel.next<AwaitReplies | typeof STOP>();
  if (message.type === 'stop') break;
  const pending = new Set(message.ids);
  const arrivedAt: Record<string, number> = {};
  const deadline = wallClock() + message.timeoutMs;
  while (pending.size > 0 && wallClock() < deadline) {
    for (const id of pending) {
      if (slack.responses(id).length === 0) continue;
      arrivedAt[id] = wallClock();
      pending.delete(id);
    }
    if (pending.size > 0) await delay(POLL_MS);
  }
  slack.reset();
  channel.send({ arrivedAt } satisfies RepliesArrived);
}
await slack.close();
await emulator.close();
channel.disconnect();
