// Card updates spread over two replicas. chat.update is Tier 3 (about 50 a minute per app per
// workspace after a burst, HTTP 429 past it: the strict fake Slack's updatePace), counted whichever
// replica sends them. Here more cards than one minute's budget change at once, half on each replica:
// each replica alone would spend a whole burst and Slack would refuse the excess, leaving those cards
// stale. Both replicas update at Tier 3's pace on the real clock, claiming each update's moment in the
// shared PostgreSQL store: no update is refused, and every card ends showing its machine ready.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestSchema } from '../store/postgres-test-database.js';
import type { TestUserName } from '../support/test-bot.js';
import {
  type CardedMachine,
  POLL_INTERVAL_MS,
  type Replica,
  type ReplicaCluster,
  startReplicaCluster,
} from './cluster.js';

const OWNERS: readonly TestUserName[] = ['ada', 'maya', 'sam'];
/** More cards than a minute of Tier 3 (50) lets through at once. */
const CARDS = 60;
/** Cards per channel: each replica's completions in a channel go out as one message, within its pace. */
const PER_CHANNEL = 5;

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

function addCard(index: number): CardedMachine {
  const owner = OWNERS[index % OWNERS.length] as TestUserName;
  const channel = `C0TEAM${Math.floor(index / PER_CHANNEL)}`;
  return c.addCardedMachine(
    owner,
    `${owner}-card-${index + 1}`,
    channel,
    `1700000800.${String(index + 1).padStart(6, '0')}`,
  );
}

const lastUpdateOf = (card: CardedMachine) =>
  c.slack
    .calls('chat.update')
    .filter((call) => call.args.channel === card.channel && call.args.ts === card.cardTs)
    .at(-1);

describe('two replicas updating more cards than a minute of Slack’s update budget', () => {
  it('have no update refused with 429, and every card ends in its latest state', async () => {
    const [a, b] = c.replicas as [Replica, Replica];
    const cards = Array.from({ length: CARDS }, (_, n) => addCard(n));
    await Promise.all(cards.map((card, n) => c.startAndWatch(card, n % 2 === 0 ? a : b)));
    c.clock.advance(POLL_INTERVAL_MS);
    await c.tickAll();
    // The updates past the burst go out at Tier 3's pace, about 1.2 s apart for the deployment.
    const deadline = Date.now() + 40_000;
    while (
      cards.some((card) => !/ready/i.test(String(lastUpdateOf(card)?.args.text))) &&
      Date.now() < deadline
    )
      await new Promise((resolve) => setTimeout(resolve, 200));

    const updates = c.slack.calls('chat.update');
    expect(updates.filter((call) => call.answer?.ok !== true)).toEqual([]);
    for (const card of cards) {
      const last = lastUpdateOf(card);
      expect(last?.answer?.ok, card.name).toBe(true);
      expect(String(last?.args.text), card.name).toMatch(/ready/i);
    }
    // Each update claimed its moment in the store: no replica fell back to its own budget.
    for (const replica of c.replicas) {
      const unclaimed = replica
        .logLines()
        .filter((line) => line.msg?.startsWith('could not claim a card update'));
      expect(unclaimed).toEqual([]);
    }
  }, 60_000);
});
