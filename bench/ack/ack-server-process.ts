// Child process of the ack benchmark: serves Slack requests as the bot or as the minimal-work floor until
// the benchmark says stop. Started by ack-latency.ts, never on its own.
import { startBenchBot } from '../support/bench-bot.js';
import { linkAccounts } from '../support/bench-world.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import { heapAllocationCounter } from '../support/heap-allocation.js';
import type { AckServerConfig, AckServerReady, USAGE_QUERY, UsageSoFar } from './ack-protocol.js';
import { startFloorApp } from './floor-app.js';

const heapAllocated = heapAllocationCounter();
const channel = parentChannel();
const config = await channel.next<AckServerConfig>();
let server: { url: string; close(): Promise<void> };
if (config.kind === 'bot') {
  const bench = await startBenchBot({ paperspace: config.paperspace, slackApiUrl: config.slackApiUrl });
  await linkAccounts(bench.vault, config.accounts);
  server = bench;
} else {
  server = await startFloorApp({
    slackApiUrl: config.slackApiUrl,
    paperspaceApiUrl: config.paperspace.apiUrl,
    keys: new Map(config.accounts.map(({ slackUser, apiKey }) => [slackUser.userId, apiKey])),
  });
}
channel.send({ url: server.url } satisfies AckServerReady);
for (;;) {
  const message = await channel.next<typeof USAGE_QUERY | typeof STOP>();
  if (message.type === 'stop') break;
  channel.send({ cpu: process.cpuUsage(), heapAllocatedBytes: heapAllocated() } satisfies UsageSoFar);
}
await server.close();
channel.disconnect();
