// Scale-out: two whole bots on one PostgreSQL database, one Paperspace emulator and one fake Slack. Their
// ticks, reminder fires and watch requests run at the same moment, so the store's claims are what keep
// every completion and every reminder to one post. Then one replica is killed holding watches, one
// stops gracefully, one stalls past its lease, and one dies between recording completions and posting.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RETRY_AFTER_MS } from '../../src/features/watches/watch-outcomes.js';
import type { Watch } from '../../src/store/watch-types.js';
import { messageText } from '../scheduler/harness.js';
import { useTestSchema } from '../store/postgres-test-database.js';
import type { ApiCall } from '../support/fake-slack.js';
import { type TestUserName, USERS } from '../support/test-bot.js';
import {
  type CardedMachine,
  type CompletionHold,
  LEASE_MS,
  POLL_INTERVAL_MS,
  type Replica,
  type ReplicaCluster,
  startReplicaCluster,
  TRANSITION_MS,
} from './cluster.js';

const OWNERS: readonly TestUserName[] = ['ada', 'maya', 'sam'];
const CHANNEL = 'C0OPS';
const WARN = 40;
/** Ticks come faster than the poll interval here, so that a start is seen both under way and done. */
const TICK_MS = 1000;

const schema = useTestSchema();
let c: ReplicaCluster;
/** The cluster of the current test, until its afterEach has closed it. */
let running: ReplicaCluster | undefined;
let a: Replica;
let b: Replica;

/**
 * `count` machines that are off, owned in turn by ada, maya and sam, each with its card posted in
 * CHANNEL (as the Start click that watches it would have).
 */
function addFleet(count: number): CardedMachine[] {
  return Array.from({ length: count }, (_, index) => {
    const owner = OWNERS[index % OWNERS.length] as TestUserName;
    return c.addCardedMachine(
      owner,
      `${owner}-fleet-${index + 1}`,
      CHANNEL,
      `1700000500.${String(index + 1).padStart(6, '0')}`,
    );
  });
}

/** Starts and watches the machines, half of the requests reaching each replica. */
function startAndWatchAll(machines: CardedMachine[]) {
  return Promise.all(machines.map((machine, index) => c.startAndWatch(machine, index % 2 === 0 ? a : b)));
}

/**
 * The completions Slack took in CHANNEL (the cards there were shown, not posted): the completions
 * waiting for the channel together go out in one message, a line each.
 */
const completionReplies = (): ApiCall[] =>
  c.slack.calls('chat.postMessage').filter((call) => call.args.channel === CHANNEL && call.answer?.ok);

/** The line of a completion about `machine`, in the first message that carried it. */
const replyTo = (machine: CardedMachine): string | undefined =>
  completionReplies()
    .flatMap((call) => String(call.args.text).split('\n'))
    .find((line) => line.includes(`*${machine.name}*`));

/** How many completion messages named each machine, by machine name. */
function repliesPerMachine(fleet: CardedMachine[]): Record<string, number> {
  const texts = completionReplies().map((call) => String(call.args.text));
  return Object.fromEntries(
    fleet.map((machine) => [machine.name, texts.filter((text) => text.includes(`*${machine.name}*`)).length]),
  );
}

/** How many times each machine's card was edited, by machine name. */
function cardUpdatesPerMachine(fleet: CardedMachine[]): Record<string, number> {
  const counts = Object.fromEntries(fleet.map((machine) => [machine.name, 0]));
  const byCard = new Map(fleet.map((machine) => [machine.cardTs, machine.name]));
  for (const update of c.slack.calls('chat.update')) {
    const name = byCard.get(String(update.args.ts)) ?? `unknown card ${String(update.args.ts)}`;
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

const once = (fleet: CardedMachine[]) => Object.fromEntries(fleet.map((machine) => [machine.name, 1]));

const problemsLogged = (replica: Replica) => replica.logLines().filter((line) => line.level >= WARN);

/**
 * Twelve machines started and watched, A holding the watches; by A's next tick all are ready, and
 * `stall` holds that tick at every completion (four per person reach the database at the same moment).
 * Answers once all twelve are held.
 */
async function tickHeldAtCompletions(stall: (replica: Replica) => CompletionHold) {
  const fleet = addFleet(12);
  await startAndWatchAll(fleet);
  await a.scheduler.tick();
  c.clock.advance(TICK_MS * 3);
  const hold = stall(a);
  const tick = a.scheduler.tick();
  await vi.waitFor(() => expect(hold.waiting()).toBe(fleet.length));
  return { fleet, hold, tick };
}

describe('two replicas on one PostgreSQL database', () => {
  // Both replicas start on the test's fresh schema (made by useTestSchema's hook, which runs first and
  // drops it after this block's afterEach has stopped them), with every demo user's key linked.
  beforeEach(async () => {
    c = await startReplicaCluster({ databaseUrl: schema.url, replicaIds: ['replica-a', 'replica-b'] });
    running = c;
    for (const owner of OWNERS) await c.link(owner);
    [a, b] = c.replicas as [Replica, Replica];
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('post each of 100 watch completions exactly once while both poll at the same moments', async () => {
    const fleet = addFleet(100);

    // Four waves of 25 Start clicks, each landing while both replicas are in the middle of a tick; every
    // later tick then has both replicas claiming the same fresh watches at once, while finishing others.
    const watches: Watch[] = [];
    for (let wave = 0; wave < 4; wave += 1) {
      const [, started] = await Promise.all([
        c.tickAll(),
        startAndWatchAll(fleet.slice(wave * 25, wave * 25 + 25)),
      ]);
      watches.push(...started);
      c.clock.advance(TICK_MS);
    }
    // Enough further ticks for the last wave to finish, and then some that must post nothing more.
    for (let round = 0; round < 6; round += 1) {
      await c.tickAll();
      c.clock.advance(TICK_MS);
    }

    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
    // One replica at a time polls a watch, so its card changes once per state, not once per replica:
    // Starting, then the final ✅.
    expect(cardUpdatesPerMachine(fleet)).toEqual(
      Object.fromEntries(fleet.map((machine) => [machine.name, 2])),
    );
    const finished = await Promise.all(watches.map((watch) => a.store.watches.get(watch.id)));
    expect(finished.map((watch) => watch?.status)).toEqual(watches.map(() => 'done'));
    const sample = fleet[41] as CardedMachine;
    const reply = String(replyTo(sample));
    expect(reply).toContain(`<@${USERS[sample.owner].slackId}>`);
    expect(reply).toContain(sample.name);
    expect(reply).toContain(`took ${TRANSITION_MS / 1000}s`);
    // A claim that deadlocked or a statement that failed under contention is logged and retried, which
    // could still end in one post each: the logs must show that it never happened.
    expect(problemsLogged(a)).toEqual([]);
    expect(problemsLogged(b)).toEqual([]);
  });

  it('post each of 20 reminders due at the same minute exactly once, though both replicas fire all 20', async () => {
    // The same instant, 19:00 UTC on a May evening, written in each person's own time zone.
    const sameMinute = [
      { timezone: 'UTC', cron: '0 19 * * *' },
      { timezone: 'Europe/Amsterdam', cron: '0 21 * * *' },
      { timezone: 'America/New_York', cron: '0 15 * * *' },
      { timezone: 'Asia/Kolkata', cron: '30 0 * * *' },
      { timezone: 'Asia/Tokyo', cron: '0 4 * * *' },
      { timezone: 'Europe/London', cron: '0 20 * * *' },
      { timezone: 'America/Los_Angeles', cron: '0 12 * * *' },
    ];
    // Seven schedules over three people: no person gets the same schedule twice (the store refuses that).
    // The demo users' own running machines (the seed's), which each reminder must list.
    const runningMachineOf: Record<TestUserName, string> = {
      ada: 'ada-workstation',
      maya: 'maya-trainer',
      sam: 'sam-desktop',
    };
    const reminders = await Promise.all(
      Array.from({ length: 20 }, (_, index) => {
        const owner = OWNERS[index % OWNERS.length] as TestUserName;
        const when = sameMinute[index % sameMinute.length] as (typeof sameMinute)[number];
        // `/ps remind` stores the reminder through whichever replica Slack sent the command to.
        const via = index % 2 === 0 ? a : b;
        return via.store.reminders.create({
          ...c.user(owner),
          ...when,
          channel: `C0TEAM${String(index + 1).padStart(2, '0')}`,
          createdAt: c.clock.now(),
        });
      }),
    );
    await c.tickAll();
    expect(a.cron.jobs()).toHaveLength(20);
    expect(b.cron.jobs()).toHaveLength(20);

    const postsPerChannel = () => {
      const counts = Object.fromEntries(reminders.map((reminder) => [reminder.channel, 0]));
      for (const post of c.slack.calls('chat.postMessage')) {
        const channel = String(post.args.channel);
        counts[channel] = (counts[channel] ?? 0) + 1;
      }
      return counts;
    };
    const each = (times: number) =>
      Object.fromEntries(reminders.map((reminder) => [reminder.channel, times]));

    c.clock.set(Date.parse('2024-05-15T18:59:00Z'));
    expect(await c.runDueReminders()).toEqual([0, 0]);
    expect(postsPerChannel()).toEqual(each(0));

    c.clock.set(Date.parse('2024-05-15T19:00:00Z'));
    expect(await c.runDueReminders()).toEqual([20, 20]);
    expect(postsPerChannel()).toEqual(each(1));
    for (const reminder of reminders) {
      const owner = OWNERS.find((name) => USERS[name].slackId === reminder.userId) as TestUserName;
      const post = c.slack.calls('chat.postMessage').find((call) => call.args.channel === reminder.channel);
      expect(messageText(post?.args ?? {})).toContain(runningMachineOf[owner]);
    }

    // The next evening is another occurrence, claimed afresh: once more each, not zero and not twice.
    c.clock.set(Date.parse('2024-05-16T19:00:00Z'));
    expect(await c.runDueReminders()).toEqual([20, 20]);
    expect(postsPerChannel()).toEqual(each(2));
    expect(problemsLogged(a)).toEqual([]);
    expect(problemsLogged(b)).toEqual([]);
  });

  it('poll each person from one replica at most in any tick, and split the people between them', async () => {
    const fleet = addFleet(30);
    await startAndWatchAll(fleet);
    const owners = OWNERS.map((owner) => USERS[owner].emulatorUserId).sort();
    const heldBy = async (replica: Replica) => {
      const held = new Set<string>();
      for (const watch of await b.store.watches.listActive()) {
        if ((await b.store.watchLeases.holderOf(watch)) === replica.id) held.add(watch.userId);
      }
      return held;
    };
    // The machines stay mid-start (the clock does not move), so every tick polls all three people.
    for (let tick = 0; tick < 4; tick += 1) {
      const before = c.emulator.state.requests().length;
      await c.tickAll();
      const listed = c.emulator.state
        .requests()
        .slice(before)
        .filter((entry) => entry.path === '/machines/getMachines')
        .map((entry) => entry.userId)
        .sort();
      // One machine list per person polled: a person listed twice was polled by both replicas.
      expect(new Set(listed).size).toBe(listed.length);
      // From the third tick on both replicas have seen each other: everybody is polled, every tick.
      if (tick >= 2) expect(listed).toEqual(owners);
    }
    const [ofA, ofB] = [await heldBy(a), await heldBy(b)];
    expect([ofA.size, ofB.size].sort()).toEqual([1, 2]);
    expect([...ofA].filter((person) => ofB.has(person))).toEqual([]);
  });

  it('post every completion once when a replica dies holding people: the other takes them over after the lease', async () => {
    const fleet = addFleet(100);
    // The first half while both replicas run and poll at the same moments; some finish before the crash.
    for (let wave = 0; wave < 5; wave += 1) {
      await Promise.all([c.tickAll(), startAndWatchAll(fleet.slice(wave * 10, wave * 10 + 10))]);
      c.clock.advance(TICK_MS);
    }
    await c.tickAll();
    const postedBeforeCrash = completionReplies().length;
    expect(postedBeforeCrash).toBeGreaterThan(0);

    // The second half is mid-start when A dies, each person's watches held by one replica.
    await startAndWatchAll(fleet.slice(50));
    await c.tickAll();
    const claimedBy = async (replica: Replica) => {
      const watches = await b.store.watches.listActive();
      const holders = await Promise.all(watches.map((watch) => b.store.watchLeases.holderOf(watch)));
      return watches.filter((_, index) => holders[index] === replica.id);
    };
    const orphaned = await claimedBy(a);
    expect(orphaned.length).toBeGreaterThan(0);
    const orphanedIds = orphaned.map((watch) => watch.id).sort();

    await a.crash();
    // Nothing was handed back: A's leases still stand in the database.
    expect((await claimedBy(a)).map((watch) => watch.id).sort()).toEqual(orphanedIds);

    // While A's leases last, B finishes its own people's watches and leaves A's alone: A might only be slow.
    c.clock.advance(POLL_INTERVAL_MS);
    await b.scheduler.tick();
    expect((await b.store.watches.listActive()).map((watch) => watch.id).sort()).toEqual(orphanedIds);
    for (const watch of orphaned) {
      expect(replyTo(fleet.find((m) => m.id === watch.machineId) as CardedMachine)).toBeUndefined();
    }

    // Within one lease period B takes A's people over and reports their watches, with the time the
    // starts really took.
    c.clock.advance(LEASE_MS - POLL_INTERVAL_MS);
    await b.scheduler.tick();
    expect(await b.store.watches.listActive()).toEqual([]);
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
    for (const watch of orphaned) {
      expect(await b.store.watchLeases.holderOf(watch)).toBe(b.id);
      const machine = fleet.find((m) => m.id === watch.machineId) as CardedMachine;
      expect(String(replyTo(machine))).toContain(`took ${TRANSITION_MS / 1000}s`);
    }
    await b.scheduler.tick();
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
    expect(problemsLogged(b)).toEqual([]);
  });

  it('hand the watches of a replica that stops gracefully to the other at once, without waiting out the lease', async () => {
    const fleet = addFleet(10);
    await startAndWatchAll(fleet);
    await a.scheduler.tick();
    const watches = await b.store.watches.listActive();
    expect(await Promise.all(watches.map((watch) => b.store.watchLeases.holderOf(watch)))).toEqual(
      fleet.map(() => a.id),
    );

    await a.stop();
    c.clock.advance(TICK_MS * 3);
    await b.scheduler.tick();
    expect(await b.store.watches.listActive()).toEqual([]);
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
  });

  it('post a completion once when a stalled replica finishes watches the other took over after its lease ran out', async () => {
    // A sees every machine ready and stalls just before recording the completions.
    const {
      fleet,
      hold,
      tick: stalledTick,
    } = await tickHeldAtCompletions((replica) => replica.holdCompletions());

    // Meanwhile its leases run out, B takes the watches and posts every completion.
    c.clock.advance(LEASE_MS + TICK_MS);
    await b.scheduler.tick();
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));

    // A wakes up to find them finished: it posts nothing more and leaves the cards as B left them
    // (its Starting edit, then B's final one).
    hold.release();
    await stalledTick;
    await c.tickAll();
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
    expect(cardUpdatesPerMachine(fleet)).toEqual(
      Object.fromEntries(fleet.map((machine) => [machine.name, 2])),
    );
    expect(problemsLogged(a)).toEqual([]);
    expect(problemsLogged(b)).toEqual([]);
    const finished = await Promise.all(fleet.map((m) => b.store.watches.listActive({ machineId: m.id })));
    expect(finished.flat()).toEqual([]);
  });

  it('post every completion once when a replica dies between recording completions and posting them', async () => {
    // A records every completion, then dies before it posts any of them.
    const { fleet, tick: dyingTick } = await tickHeldAtCompletions((replica) =>
      replica.holdAfterCompletions(),
    );
    await a.crash();
    await dyingTick;
    expect(completionReplies()).toEqual([]);
    expect(await b.store.watches.listActive()).toEqual([]);

    // The outcomes wait in the database for A a while (it might only be slow), then B posts them.
    c.clock.advance(RETRY_AFTER_MS - TICK_MS);
    await b.scheduler.tick();
    expect(completionReplies()).toEqual([]);
    c.clock.advance(TICK_MS);
    await b.scheduler.tick();
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
    for (const machine of fleet) expect(String(replyTo(machine))).toContain(machine.name);
    c.clock.advance(RETRY_AFTER_MS);
    await b.scheduler.tick();
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
    expect(problemsLogged(b)).toEqual([]);
  });

  it('post one completion per card when a request about it reaches both replicas at the same moment', async () => {
    const fleet = addFleet(20);
    await Promise.all(fleet.map((machine) => c.client(machine.owner).machines.start(machine.id)));
    // Start clicked twice, or by two people, on each card: Slack hands the clicks to different replicas.
    await Promise.all(
      fleet.flatMap((machine) =>
        [a, b].map((replica) =>
          replica.watcher.watch({
            user: c.user(machine.owner),
            machineId: machine.id,
            machineName: machine.name,
            targetState: 'serviceready',
            channel: CHANNEL,
            messageTs: machine.cardTs,
            initialState: 'off',
          }),
        ),
      ),
    );
    expect(await a.store.watches.listActive()).toHaveLength(fleet.length);

    for (let round = 0; round < 4; round += 1) {
      await c.tickAll();
      c.clock.advance(TICK_MS);
    }
    expect(repliesPerMachine(fleet)).toEqual(once(fleet));
  });
});
