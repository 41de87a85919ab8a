// Child process of the completion benchmark: the Paperspace emulator (one individual account per
// person, with latency) and the fake Slack Web API, in a process apart from the bot. In production
// neither shares the bot's CPU; here, in the bot's process, serving 1,000 people's lists and the
// replies to them took about a third of that one event loop and made the bot's own latency look worse
// than it is. Arrival times are read here, every SAMPLE_MS, so sampling costs the bot nothing either.
// Started by completion-latency.ts, never on its own.
import { setTimeout as delay } from 'node:timers/promises';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { startEmulator } from '../../tools/emulator/index.js';
import { BENCH_TEAM_ID, benchAccounts, benchSeed } from '../support/bench-world.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import type {
  AddWave,
  AwaitReplies,
  CompletionWorldConfig,
  CompletionWorldReady,
  RepliesArrived,
  WaveAdded,
} from './completion-protocol.js';

/** How often the fake Slack's call log is read; arrival times are this precise. */
const SAMPLE_MS = 20;

const channel = parentChannel();
const config = await channel.next<CompletionWorldConfig>();
const accounts = benchAccounts(config.people);
const emulator = await startEmulator({
  seed: benchSeed(accounts),
  transitionMs: config.transitionMs,
  latencyMs: config.latencyMs,
});
const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
channel.send({
  paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
  slackApiUrl: slack.apiUrl,
} satisfies CompletionWorldReady);

async function awaitReplies({ cards, timeoutMs }: AwaitReplies): Promise<RepliesArrived> {
  const pending = new Set(cards);
  const arrivedAt: Record<string, number> = {};
  const deadline = Date.now() + timeoutMs;
  let seen = 0;
  while (pending.size > 0 && Date.now() < deadline) {
    const posts = slack.calls('chat.postMessage');
    const at = Date.now();
    for (const call of posts.slice(seen)) {
      const thread = call.args.thread_ts;
      if (typeof thread === 'string' && pending.delete(thread)) arrivedAt[thread] = at;
    }
    seen = posts.length;
    await delay(SAMPLE_MS);
  }
  return { arrivedAt };
}

for (;;) {
  const message = await channel.next<AddWave | AwaitReplies | typeof STOP>();
  if (message.type === 'stop') break;
  if (message.type === 'replies') {
    channel.send((await awaitReplies(message)) satisfies RepliesArrived);
    continue;
  }
  const added = Date.now();
  const machineIds = accounts.map(({ account }) => {
    const [machineId] = emulator.state.addMachines(1, {
      owner: account.userId,
      state: 'starting',
      namePrefix: `${account.userId}-w${message.wave}`,
    });
    if (machineId === undefined) throw new Error('the emulator added no machine');
    return machineId;
  });
  channel.send({ machineIds, reachedAt: added + config.transitionMs } satisfies WaveAdded);
}
await slack.close();
await emulator.close();
channel.disconnect();
