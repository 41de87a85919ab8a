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
  AddRound,
  AwaitReplies,
  CompletionWorldConfig,
  CompletionWorldReady,
  RepliesArrived,
  RoundAdded,
  RoundMachine,
} from './completion-protocol.js';

/** How often the fake Slack's call log is read, and machines are added; arrival times are this precise. */
const SAMPLE_MS = 20;
/** The names the world gives machines (`<user id>-r<round>-1`), to find them in a reply's text and blocks. */
const MACHINE_NAME = /u1bench\d+-r\d+-\d+/g;

const channel = parentChannel();
const config = await channel.next<CompletionWorldConfig>();
const accounts = benchAccounts(config.people);
const emulator = await startEmulator({
  seed: benchSeed(accounts),
  transitionMs: config.transitionMs,
  latencyMs: config.latencyMs,
});
const slack = await startFakeSlack({ teamId: BENCH_TEAM_ID });
let hungApiKey: string | null = null;
channel.send({
  paperspace: { apiUrl: emulator.url, graphqlUrl: emulator.graphqlUrl },
  slackApiUrl: slack.apiUrl,
} satisfies CompletionWorldReady);

async function addRound({ round, spreadMs, hungApiKey: hang }: AddRound): Promise<RoundAdded> {
  if (hungApiKey !== null) emulator.state.releaseKey(hungApiKey);
  hungApiKey = hang;
  if (hang !== null) emulator.state.hangKey(hang);
  const machines: RoundMachine[] = [];
  const started = Date.now();
  while (machines.length < accounts.length) {
    // Person k's machine is added k/people of the way through the spread, in steps of SAMPLE_MS.
    const due = Math.min(
      accounts.length,
      Math.floor(((Date.now() - started) / spreadMs) * accounts.length) + 1,
    );
    for (let person = machines.length; person < due; person += 1) {
      const account = accounts[person]?.account;
      if (account === undefined) throw new Error('no account for a person');
      const namePrefix = `${account.userId}-r${round}`;
      const [machineId] = emulator.state.addMachines(1, {
        owner: account.userId,
        state: 'starting',
        namePrefix,
      });
      if (machineId === undefined) throw new Error('the emulator added no machine');
      const cardChannel = config.oneChannel ? 'C0BENCHALL' : `C0BENCH${person}`;
      const cardTs = `1700000000.${String(round * accounts.length + person + 1).padStart(6, '0')}`;
      // The card the watch updates, as /ps start posted it.
      slack.showMessage(cardChannel, cardTs);
      machines.push({
        machineId,
        machineName: `${namePrefix}-1`,
        channel: cardChannel,
        cardTs,
        reachedAt: Date.now() + config.transitionMs,
      });
    }
    if (machines.length < accounts.length) await delay(SAMPLE_MS);
  }
  return { machines };
}

async function awaitReplies({ cards, timeoutMs }: AwaitReplies): Promise<RepliesArrived> {
  const byTs = new Map(cards.map((card) => [card.cardTs, card]));
  const byName = new Map(cards.map((card) => [card.machineName, card]));
  const arrivedAt: Record<string, number> = {};
  let arrivals = 0;
  const deadline = Date.now() + timeoutMs;
  let seen = 0;
  let paceRefusals = 0;
  const arrived = (card: AwaitReplies['cards'][number] | undefined, postedIn: unknown, at: number) => {
    if (card === undefined || card.channel !== postedIn || arrivedAt[card.cardTs] !== undefined) return;
    arrivedAt[card.cardTs] = at;
    arrivals += 1;
  };
  // Only the calls made since the last look are read: this process serves the emulator and Slack too,
  // and rereading 10,000 rounds' worth of calls every 20 ms took a tenth of its CPU from them.
  while (arrivals < cards.length && Date.now() < deadline) {
    const calls = slack.callsSince(seen);
    seen += calls.length;
    const at = Date.now();
    for (const { method, args, answer } of calls) {
      if (method !== 'chat.postMessage') continue;
      if (answer?.ok !== true) {
        if (answer?.error === 'ratelimited') paceRefusals += 1;
        continue;
      }
      if (typeof args.thread_ts === 'string') arrived(byTs.get(args.thread_ts), args.channel, at);
      // A completion coalesced with others names each machine it reports.
      const said = JSON.stringify([args.text, args.blocks]);
      for (const [name] of said.matchAll(MACHINE_NAME)) arrived(byName.get(name), args.channel, at);
    }
    await delay(SAMPLE_MS);
  }
  return { arrivedAt, paceRefusals };
}

for (;;) {
  const message = await channel.next<AddRound | AwaitReplies | typeof STOP>();
  if (message.type === 'stop') break;
  if (message.type === 'replies') channel.send((await awaitReplies(message)) satisfies RepliesArrived);
  else channel.send((await addRound(message)) satisfies RoundAdded);
}
if (hungApiKey !== null) emulator.state.releaseKey(hungApiKey);
await slack.close();
await emulator.close();
channel.disconnect();
