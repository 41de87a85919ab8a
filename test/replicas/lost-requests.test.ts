// A team types 20 `/ps start` in one channel, spread over two replicas on PostgreSQL; their cards wait
// in the channel's one-message-a-second lane. Then a replica dies (1.8 s in), or the database is cut
// (0.8 s after 10 starts) and comes back. Every machine Paperspace started gets exactly one completion
// naming it, and every watch completes: a start is recorded as its watch before the call
// (machines/power-intent.ts), and a replica settles what the lost one left (watches/intent-recovery.ts).
// And every command Slack saw acked gets a message to its person naming its machine: a command is
// stored as a receipt before its ack, and a replica tells the person of one a lost replica left before
// its intent (watches/receipt-recovery.ts). The replica dies as cluster.ts's crash() does: its database connections drop first, then it stops.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { INTENT_GRACE_MS } from '../../src/features/watches/intent-recovery.js';
import { RECEIPT_GRACE_MS } from '../../src/features/watches/receipt-recovery.js';
import { RETRY_AFTER_MS } from '../../src/features/watches/watch-outcomes.js';
import { createTestSchema, postgresSkipReason, type TestSchema } from '../store/postgres-test-database.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { type TestUserName, USERS } from '../support/test-bot.js';
import {
  LEASE_MS,
  POLL_INTERVAL_MS,
  type Replica,
  type ReplicaCluster,
  startReplicaCluster,
} from './cluster.js';

const OWNERS: readonly TestUserName[] = ['ada', 'maya', 'sam'];
const CHANNEL = 'C0TEAM';

interface Started {
  name: string;
  owner: TestUserName;
  via: Replica;
  /** Slack saw the command acked (its person was shown it was taken). */
  acked: boolean;
  responseUrlId: string;
}

let schema: TestSchema | undefined;
let proxy: TcpProxy | undefined;
let c: ReplicaCluster | undefined;
afterEach(async () => {
  proxy?.restore();
  await c?.close();
  await proxy?.close();
  await schema?.drop();
  c = undefined;
  proxy = undefined;
  schema = undefined;
});

async function startCluster(throughProxy: boolean): Promise<ReplicaCluster> {
  schema = await createTestSchema();
  proxy = throughProxy ? await startTcpProxy(schema.url) : undefined;
  c = await startReplicaCluster({
    databaseUrl: proxy?.url ?? schema.url,
    replicaIds: ['replica-a', 'replica-b'],
    pacedLikeSlack: true,
  });
  for (const owner of OWNERS) await c.link(owner);
  return c;
}

/** Types `/ps start` for `count` machines that are off, alternating between the replicas. */
async function startMachines(cluster: ReplicaCluster, round: number, count: number): Promise<Started[]> {
  const started: Started[] = [];
  for (let index = 0; index < count; index++) {
    const owner = OWNERS[index % OWNERS.length] as TestUserName;
    const [id] = cluster.emulator.state.addMachines(1, {
      owner: USERS[owner].emulatorUserId,
      state: 'off',
      namePrefix: `r${round}-${owner}-${index}-`,
    });
    const name = cluster.emulator.state.machine(id ?? '')?.name;
    if (name === undefined) throw new Error('the emulator did not add a machine');
    const responseUrlId = `r${round}-command-${index}`;
    started.push({ name, owner, via: cluster.replicas[index % 2] as Replica, acked: false, responseUrlId });
  }
  await Promise.all(
    started.map(async (machine) => {
      const request = cluster.requests.slashCommand({
        text: `start ${machine.name}`,
        userId: USERS[machine.owner].slackId,
        channelId: CHANNEL,
        responseUrlId: machine.responseUrlId,
      });
      const answer = await cluster.send(machine.via, request).catch(() => undefined);
      machine.acked = answer?.status === 200;
    }),
  );
  return started;
}

/** The replies in the channel that name `name` and mention its person: completions, or "did not happen". */
function completionsOf(cluster: ReplicaCluster, { name, owner }: Started): string[] {
  return cluster.slack
    .calls('chat.postMessage')
    .filter((call) => call.args.channel === CHANNEL && call.answer?.ok === true)
    .flatMap((call) => String(call.args.text).split('\n'))
    .filter((line) => line.includes(`*${name}*`) && line.includes(`<@${USERS[owner].slackId}>`));
}

/**
 * Everything the person of `machine` was shown that names it: its completion (or "did not happen") in
 * the channel, an ephemeral message or a DM, or an answer through the command's response_url.
 */
function toldOf(cluster: ReplicaCluster, machine: Started): string[] {
  const person = USERS[machine.owner].slackId;
  const privately = [
    ...cluster.slack.calls('chat.postEphemeral').filter((call) => call.args.user === person),
    ...cluster.slack.calls('chat.postMessage').filter((call) => call.args.channel === person),
  ]
    .filter((call) => call.answer?.ok === true)
    .map((call) => String(call.args.text));
  const responses = cluster.slack.responses(machine.responseUrlId).map((post) => JSON.stringify(post));
  return [...completionsOf(cluster, machine), ...privately, ...responses].filter((text) =>
    text.includes(machine.name),
  );
}

/** Waits (real time) until the requests `survivors` took are recorded: their cards are out of the lane. */
async function untilRecorded(survivor: Replica, machines: readonly Started[]): Promise<void> {
  const theirs = new Set(machines.filter((machine) => machine.via.alive).map((machine) => machine.name));
  for (let waited = 0; waited < 60_000; waited += 250) {
    const pending = await survivor.store.watches.pendingIntents(Number.MAX_SAFE_INTEGER, 100);
    if (!pending.some((watch) => theirs.has(watch.machineName))) return;
    await sleep(250);
  }
}

/**
 * Moves the shared clock past every grace (an intent's, a lease's, an unposted report's) a poll interval
 * at a time, ticking the live replicas, until no watch is active and no report is due.
 */
async function drain(cluster: ReplicaCluster, survivor: Replica): Promise<void> {
  const horizon =
    cluster.clock.now() +
    Math.max(INTENT_GRACE_MS, RECEIPT_GRACE_MS) +
    LEASE_MS +
    RETRY_AFTER_MS +
    10 * POLL_INTERVAL_MS;
  while (cluster.clock.now() < horizon) {
    cluster.clock.advance(POLL_INTERVAL_MS);
    await cluster.tickAll();
    const active = await survivor.store.watches.countActive();
    const due = await survivor.store.watches.dueReports(cluster.clock.now() + 10 * 60_000, 100);
    const receipts = await survivor.store.receivedRequests.pending(Number.MAX_SAFE_INTEGER, 1);
    if (active === 0 && due.length === 0 && receipts.length === 0) return;
  }
}

function report(label: string, cluster: ReplicaCluster, machines: readonly Started[]) {
  const started = machines.filter(({ name }) => {
    const machine = cluster.emulator.state.machineByName(name);
    return machine !== undefined && machine.state !== 'off';
  });
  const counts = started.map((machine) => completionsOf(cluster, machine).length);
  const notStarted = machines.filter((machine) => !started.includes(machine));
  const told = notStarted.filter((machine) => completionsOf(cluster, machine).length > 0);
  const acked = machines.filter((machine) => machine.acked);
  const untold = acked.filter((machine) => toldOf(cluster, machine).length === 0);
  const figures = {
    acked: acked.length,
    untold: untold.length,
    started: started.length,
    lost: counts.filter((count) => count === 0).length,
    twice: counts.filter((count) => count > 1).length,
    notStarted: notStarted.length,
    notStartedTold: told.length,
  };
  process.stdout.write(
    `${label}: ${figures.started} of ${machines.length} started, ${figures.lost} lost, ${figures.twice} ` +
      `completed twice; ${figures.notStarted} not started, ${figures.notStartedTold} of them told it did not happen; ` +
      `${figures.acked} acked, ${figures.untold} of them never told anything naming their machine\n`,
  );
  return { ...figures, startedMachines: started };
}

describe.skipIf(postgresSkipReason !== undefined)(
  'power requests lost with a replica or the database',
  () => {
    it.each([1, 2])(
      'round %i: a replica killed 1.8 s into 20 starts in one channel: every started machine completes once',
      async (round) => {
        const cluster = await startCluster(false);
        const [a, b] = cluster.replicas as [Replica, Replica];
        const sending = startMachines(cluster, round, 20);
        await sleep(1800);
        await a.crash();
        const machines = await sending;
        await untilRecorded(b, machines);
        await drain(cluster, b);

        const figures = report(`kill round ${round}`, cluster, machines);
        expect(figures.started).toBeGreaterThan(0);
        expect(figures.lost).toBe(0);
        expect(figures.twice).toBe(0);
        expect(figures.acked).toBeGreaterThan(0);
        expect(figures.untold).toBe(0);
        expect(await b.store.watches.countActive()).toBe(0);
      },
      180_000,
    );

    it('a replica killed as soon as its commands are acked: every acked command is told its machine', async () => {
      const cluster = await startCluster(false);
      const [a, b] = cluster.replicas as [Replica, Replica];
      // Killed the moment Slack has its acks: its requests are on their way to their intents.
      const machines = await startMachines(cluster, 4, 10);
      await a.crash();
      await untilRecorded(b, machines);
      await drain(cluster, b);

      const figures = report('kill after the acks', cluster, machines);
      expect(figures.acked).toBe(machines.length);
      expect(figures.untold).toBe(0);
      expect(figures.lost).toBe(0);
      expect(figures.twice).toBe(0);
    }, 180_000);

    it('the database cut 0.8 s after 10 starts and back: every watch completes, every card ends ready', async () => {
      const cluster = await startCluster(true);
      const [, b] = cluster.replicas as [Replica, Replica];
      const sending = startMachines(cluster, 3, 10);
      await sleep(800);
      proxy?.cut();
      await sleep(3000);
      proxy?.restore();
      const machines = await sending;
      await untilRecorded(b, machines);
      await drain(cluster, b);

      const figures = report('database cut', cluster, machines);
      expect(figures.started).toBeGreaterThan(0);
      expect(figures.lost).toBe(0);
      expect(figures.twice).toBe(0);
      expect(figures.untold).toBe(0);
      expect(await b.store.watches.countActive()).toBe(0);
      // No card is left saying "Starting…": each card of a started machine was updated to where it got.
      const cards = cluster.slack
        .calls('chat.postMessage')
        .filter((call) => call.args.channel === CHANNEL && String(call.args.text).includes('Starting'));
      const stale = cards.filter((card) => {
        const ts = String(card.answer?.ts ?? '');
        const last = cluster.slack
          .calls('chat.update')
          .filter((call) => call.args.ts === ts)
          .at(-1);
        return last === undefined || !/ready/i.test(String(last.args.text));
      });
      process.stdout.write(`database cut: ${cards.length} cards posted, ${stale.length} left unfinished\n`);
      expect(stale).toEqual([]);
    }, 180_000);
  },
);
