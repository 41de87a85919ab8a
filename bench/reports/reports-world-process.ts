// Child process of the reports benchmark: what the bot talks to, the Paperspace emulator (a team of
// 1,000 people with a running machine each, and one person with 5,000 machines, every call answered
// after 250 ms, each key held to its per-second limit) and the fake Slack Web API with its response_urls, in a process apart from the bot so
// that serving the bot's calls never counts as the bot's own stalls. Started by reports.ts only.
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { startFakeSlack } from '../../test/support/fake-slack.js';
import { startEmulator } from '../../tools/emulator/index.js';
import { BENCH_TEAM_ID } from '../support/bench-world.js';
import { parentChannel, type STOP } from '../support/child-process.js';
import type {
  AwaitReply,
  COUNT_RATE_LIMITED,
  ReplyArrived,
  ReportsWorldConfig,
  ReportsWorldReady,
} from './reports-protocol.js';

const POLL_MS = 5;
const PAPERSPACE_TEAM = 'te1bench';
const wallClock = () => performance.timeOrigin + performance.now();

const channel = parentChannel();
const config = await channel.next<ReportsWorldConfig>();
const person = ({ account, apiKey }: ReportsWorldConfig['owner']) => ({
  id: account.userId,
  email: account.email,
  firstname: 'Bench',
  lastname: account.userId,
  apiKey,
});
let rateLimited = 0;
const emulator = await startEmulator({
  latencyMs: config.latencyMs,
  rateLimit: config.perKeyLimit,
  onExchange: (entry) => {
    if (entry.status === 429) rateLimited += 1;
  },
  seed: {
    teams: [{ id: PAPERSPACE_TEAM, name: 'Bench team' }],
    users: [
      ...config.team.map((member, index) => ({
        ...person(member),
        team: PAPERSPACE_TEAM,
        role: index === 0 ? ('admin' as const) : ('member' as const),
      })),
      person(config.owner),
    ],
    templates: [
      { id: 't04azgph', name: 'paperspace/t04azgph', label: 'Ubuntu 20.04 Server', os: 'Ubuntu 20.04' },
    ],
  },
});
for (const member of config.team) {
  emulator.state.addMachines(1, {
    owner: member.account.userId,
    state: 'ready',
    namePrefix: member.account.userId,
  });
}
emulator.state.addMachines(config.machines, {
  owner: config.owner.account.userId,
  state: 'off',
  // 50 characters, as the long names.
  namePrefix: `${config.owner.account.userId}-training-run-with-a-long-name`.padEnd(42, 'x').slice(0, 42),
});
const arrivedAt = new Map<string, number>();
const slack = await startFakeSlack({
  teamId: BENCH_TEAM_ID,
  onResponseUrlPost: (id) => {
    if (!arrivedAt.has(id)) arrivedAt.set(id, wallClock());
  },
});
channel.send({
  paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
  slackApiUrl: slack.apiUrl,
  responseUrlPrefix: slack.responseUrl(''),
} satisfies ReportsWorldReady);

for (;;) {
  const message = await channel.next<AwaitReply | typeof COUNT_RATE_LIMITED | typeof STOP>();
  if (message.type === 'stop') break;
  if (message.type === 'count-429') {
    channel.send(rateLimited);
    continue;
  }
  const deadline = wallClock() + message.timeoutMs;
  while (!arrivedAt.has(message.id) && wallClock() < deadline) await delay(POLL_MS);
  const [reply] = slack.responses(message.id);
  channel.send({ arrivedAt: arrivedAt.get(message.id), blocks: hasBlocks(reply) } satisfies ReplyArrived);
}
await slack.close();
await emulator.close();
channel.disconnect();

function hasBlocks(body: unknown): boolean {
  const blocks = (body as { blocks?: unknown } | null)?.blocks;
  return Array.isArray(blocks) && blocks.length > 0;
}
