// A team waits in one channel, and its watches are spread over two replicas. Slack's pace there (about
// one message a second after a small burst, HTTP 429 past it: the strict fake Slack's channelPace)
// counts the app's posts, whichever replica sends them. Both replicas post at Slack's pace on the real
// clock here, claiming each post's slot in the shared PostgreSQL store: every completion arrives, once,
// mentioning its person; no 429 comes back; every card ends showing its machine ready.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestSchema } from '../store/postgres-test-database.js';
import { type TestUserName, USERS } from '../support/test-bot.js';
import {
  type CardedMachine,
  POLL_INTERVAL_MS,
  type Replica,
  type ReplicaCluster,
  startReplicaCluster,
} from './cluster.js';

const OWNERS: readonly TestUserName[] = ['ada', 'maya', 'sam'];
const CHANNEL = 'C0TEAM';
/** Rounds of machines finishing, each finished by both replicas' ticks at once. */
const ROUNDS = 8;
const PER_ROUND = 6;

const schema = useTestSchema();
let c: ReplicaCluster;

beforeEach(async () => {
  c = await startReplicaCluster({
    databaseUrl: schema.url,
    replicaIds: ['replica-a', 'replica-b'],
    pacedLikeSlack: true,
  });
  for (const owner of OWNERS) await c.link(owner);
});
afterEach(async () => {
  await c.close();
});

function addMachine(index: number): CardedMachine {
  const owner = OWNERS[index % OWNERS.length] as TestUserName;
  return c.addCardedMachine(
    owner,
    `${owner}-team-${index + 1}`,
    CHANNEL,
    `1700000700.${String(index + 1).padStart(6, '0')}`,
  );
}

describe('two replicas posting completions in one channel at Slack’s pace', () => {
  it('deliver every completion once, each person mentioned, no 429, every card ending ready', async () => {
    const [a, b] = c.replicas as [Replica, Replica];
    const machines: CardedMachine[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const batch = Array.from({ length: PER_ROUND }, (_, n) => addMachine(round * PER_ROUND + n));
      await Promise.all(batch.map((machine, n) => c.startAndWatch(machine, n % 2 === 0 ? a : b)));
      machines.push(...batch);
      // Past the machines' start: both replicas' next ticks find them ready and post, each replica its
      // own coalesced message; a round ends when both are posted.
      c.clock.advance(POLL_INTERVAL_MS);
      await c.tickAll();
    }
    const posts = c.slack.calls('chat.postMessage').filter((call) => call.args.channel === CHANNEL);
    // The replicas together kept the channel's pace: Slack refused none of their posts.
    expect(posts.filter((call) => call.answer?.ok !== true)).toEqual([]);
    // Each post claimed its slot in the store: no replica fell back to keeping the pace alone.
    for (const replica of c.replicas) {
      const unclaimed = replica
        .logLines()
        .filter((line) => line.msg?.startsWith('could not claim a post slot'));
      expect(unclaimed).toEqual([]);
    }
    const lines = posts.flatMap((call) => String(call.args.text).split('\n'));
    for (const machine of machines) {
      const about = lines.filter((line) => line.includes(`*${machine.name}*`));
      expect(about, machine.name).toHaveLength(1);
      expect(about[0]).toContain(`<@${USERS[machine.owner].slackId}>`);
    }
    // Each card was updated, and its last update shows the machine there.
    for (const machine of machines) {
      const updates = c.slack.calls('chat.update').filter((call) => call.args.ts === machine.cardTs);
      expect(updates.length, machine.name).toBeGreaterThan(0);
      expect(String(updates.at(-1)?.args.text)).toMatch(/ready/i);
    }
    // Nothing is left to post.
    expect(await a.store.watches.dueReports(c.clock.now() + 60 * 60_000, 100)).toEqual([]);
  }, 60_000);
});
